import { ClickHouseClient } from '@analytics/clickhouse';
import { AppConfig } from '@analytics/config';
import { EVENTS_TABLE } from '@analytics/event-store';
import { EventsConsumerModule } from '@analytics/event-writer';
import { EventIntakeModule, IngestService } from '@analytics/ingest';
import { ProjectsModule, ProjectsService } from '@analytics/projects';
import { PlatformModule } from '@analytics/runtime';
import { engineNeeds, intakeOf } from '@analytics/service-map';
import { startKafkaBatches } from '@analytics/kafka';
import { createTestEnvironment, eventually, TestEnvironment } from '@analytics/testing';
import { DynamicModule, INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';

/** A worker's process: no HTTP routes (the app never listens); the platform, the event intake and (with Kafka) the writer that consumes it. */
function worker(config: AppConfig): DynamicModule {
  return {
    module: class IntakeWorker {},
    imports: [
      PlatformModule.forRoot(config, engineNeeds(config, ['ingest', 'writer'])),
      ProjectsModule,
      EventIntakeModule.forRoot(intakeOf(config)),
      ...(config.kafka ? [EventsConsumerModule] : []),
    ],
  };
}

/**
 * Intake outside HTTP: a worker (a warehouse import, say) hands a project and records to the same
 * rules and sink as /import, through Kafka and the writer or in-process, and they are stored once.
 */
describe.each([{ kafka: false }, { kafka: true }])('event intake without HTTP (kafka: $kafka)', ({ kafka }) => {
  let environment: TestEnvironment;
  let context: INestApplication;

  beforeAll(async () => {
    environment = await createTestEnvironment({ kafka });
    // An app rather than a bare context: the writer's handlers run as its microservice.
    context = await NestFactory.create(worker(environment.config), { logger: false });
    await context.init();
    await startKafkaBatches(context);
  });
  afterAll(async () => {
    await context?.close();
    await environment.dispose();
  });

  it('applies the ingestion rules and stores what passes, exactly once when the same records come again', async () => {
    const projects = context.get(ProjectsService);
    const organization = await projects.createOrganization('Intake');
    const { project } = await projects.createProject(organization.id, 'Warehouse');
    const intake = context.get(IngestService);
    const time = Math.floor(Date.now() / 1000) - 60;
    const records = [
      { event: 'Order', properties: { time, distinct_id: 'u1', $insert_id: 'row-1', amount: 12 } },
      { event: 'Order', properties: { time, distinct_id: 'u2', $insert_id: 'row-2', amount: 7 } },
      { event: '', properties: { time, distinct_id: 'u3', $insert_id: 'row-3' } },
    ];
    const first = await intake.importEvents(project, records, {
      strict: true,
      requireInsertId: true,
      nowMs: Date.now(),
    });
    expect(first.imported).toBe(2);
    expect(first.failed).toEqual([expect.objectContaining({ index: 2, insert_id: 'row-3' })]);
    // A re-run of the same source rows (deterministic $insert_id) is deduplicated downstream.
    expect(
      (
        await intake.importEvents(project, records.slice(0, 2), {
          strict: true,
          requireInsertId: true,
          nowMs: Date.now(),
        })
      ).imported,
    ).toBe(2);
    // A caller that drops its parse (/import) lets the intake release each event once validated; others keep their arrays.
    const parsed = records.slice(0, 2);
    expect(
      (
        await intake.importEvents(project, parsed, {
          strict: true,
          requireInsertId: true,
          consumeRecords: true,
          nowMs: Date.now(),
        })
      ).imported,
    ).toBe(2);
    expect(parsed).toEqual([undefined, undefined]);
    expect(records[0]).toEqual(expect.objectContaining({ event: 'Order' }));

    const clickhouse = context.get(ClickHouseClient);
    await eventually(
      async () => {
        const result = await clickhouse.query({
          query: `SELECT insert_id FROM ${EVENTS_TABLE} FINAL WHERE project_id = {project:UInt32} ORDER BY insert_id`,
          query_params: { project: project.id },
          format: 'JSONEachRow',
        });
        expect(await result.json()).toEqual([{ insert_id: 'row-1' }, { insert_id: 'row-2' }]);
      },
      { timeoutMs: 30_000 },
    );
  });
});
