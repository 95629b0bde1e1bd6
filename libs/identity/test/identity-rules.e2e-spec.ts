import { AppConfig } from '@analytics/config';
import { IdentityMode } from '@analytics/events';
import { ExportModule } from '@analytics/export';
import { IngestModule } from '@analytics/ingest';
import { ProjectsModule, ProjectsService } from '@analytics/projects';
import { PlatformModule } from '@analytics/runtime';
import { engineNeeds, intakeOf } from '@analytics/service-map';
import { createTestEnvironment, startTestApp, TestApp, TestEnvironment } from '@analytics/testing';
import { projectScope } from '@analytics/tenancy';
import { DynamicModule } from '@nestjs/common';

function ingestAndExport(config: AppConfig): DynamicModule {
  return {
    module: class IdentityRulesTestModule {},
    imports: [
      PlatformModule.forRoot(config, engineNeeds(config, ['ingest', 'export'])),
      ProjectsModule,
      IngestModule.forRoot(intakeOf(config)),
      ExportModule,
    ],
  };
}

const day = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
const at = (seconds: number) => Date.parse(`${day}T10:00:00Z`) / 1000 + seconds;
const DEVICE = '0b7e5c8a-3f1d-4c2b-9a6e-1d2c3b4a5f60';

/**
 * The merge rules end to end (docs/identity.md, "Rules"): what an SDK sends through /track, and
 * whose events the raw export then shows. Two identified people are never fused.
 */
describe('identity merge rules, through /track and the raw export', () => {
  let environment: TestEnvironment;
  let service: TestApp;

  beforeAll(async () => {
    environment = await createTestEnvironment();
    service = await startTestApp(ingestAndExport, environment.config);
  });
  afterAll(async () => {
    await service.close();
    await environment.dispose();
  });

  /** A fresh project in `mode`, set while it has no events; `track` sends as the SDKs do, `ids` reads the export back. */
  async function project(mode: IdentityMode) {
    const projects = service.app.get(ProjectsService);
    const { project, secret } = await projects.createProject(
      (await projects.createOrganization(`Rules ${mode}`)).id,
      mode,
    );
    await projects.update(projectScope(project.id), { identityMerge: mode });
    const auth = `Basic ${Buffer.from(`${secret}:`).toString('base64')}`;
    let n = 0;
    const track = async (event: string, properties: Record<string, unknown>) => {
      const data = JSON.stringify([
        { event, properties: { token: project.token, time: at(n), $insert_id: `e${n++}`, ...properties } },
      ]);
      const response = await fetch(`${service.baseUrl}/track`, { method: 'POST', body: new URLSearchParams({ data }) });
      expect(await response.text()).toBe('1');
    };
    /** Each exported event's name and id as the export shows it (the canonical id), by insert id. */
    const ids = async () => {
      const response = await fetch(`${service.baseUrl}/api/2.0/export?from_date=${day}&to_date=${day}`, {
        headers: { Authorization: auth },
      });
      expect(response.status).toBe(200);
      const lines = (await response.text())
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as { event: string; properties: Record<string, unknown> });
      return Object.fromEntries(
        lines
          .filter((e) => !e.event.startsWith('$'))
          .map((e) => [e.properties.$insert_id, `${e.event} by ${e.properties.distinct_id}`]),
      );
    };
    return { track, ids };
  }

  it('original: $identify with $anon_id "alice" and $identified_id "bob" leaves alice\'s purchase hers', async () => {
    const { track, ids } = await project('original');
    await track('Purchased', { distinct_id: 'alice' });
    await track('Viewed', { distinct_id: 'bob' });
    await track('$identify', { distinct_id: 'bob', $anon_id: 'alice', $identified_id: 'bob' });
    expect(await ids()).toEqual({ e0: 'Purchased by alice', e1: 'Viewed by bob' });
  });

  it("original: a shared device identified as alice, then as bob: its events stay alice's, bob stays himself", async () => {
    const { track, ids } = await project('original');
    await track('Viewed', { distinct_id: DEVICE });
    await track('$identify', { distinct_id: 'alice', $anon_id: DEVICE, $identified_id: 'alice' });
    await track('Purchased', { distinct_id: 'alice' });
    await track('$identify', { distinct_id: 'bob', $anon_id: DEVICE, $identified_id: 'bob' });
    await track('Purchased', { distinct_id: 'bob' });
    expect(await ids()).toEqual({ e0: 'Viewed by alice', e2: 'Purchased by alice', e4: 'Purchased by bob' });
  });

  it('simplified: a device seen with two user ids stays with the first; the two users are never merged', async () => {
    const { track, ids } = await project('simplified');
    await track('Viewed', { $device_id: 'shared' });
    await track('Signed in', { $device_id: 'shared', $user_id: 'alice' });
    await track('Signed in', { $device_id: 'shared', $user_id: 'bob' });
    expect(await ids()).toEqual({ e0: 'Viewed by alice', e1: 'Signed in by alice', e2: 'Signed in by bob' });
  });
});
