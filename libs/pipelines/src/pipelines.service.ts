import { Clock } from '@analytics/clock';
import { OutboundPolicy, OutboundRefused } from '@analytics/outbound';
import { SecretBox } from '@analytics/secrets';
import { ProjectScope } from '@analytics/tenancy';
import { Injectable } from '@nestjs/common';
import { destinationHost } from './destination';
import { Pipeline, PipelineState } from './pipeline-definition';
import { PipelineError, PipelineErrorCode } from './pipeline-error';
import { parseCreatePipeline } from './pipeline-request';
import { PipelineRunner } from './pipeline-runner';
import { windowAfter, windowDueAt } from './pipeline-windows';
import { PipelineWindowsRepository, WindowRecord } from './pipeline-windows.repository';
import { PipelinesRepository } from './pipelines.repository';

/** A pipeline as `/jobs` lists it: the real API's fields, then ours. The secret key is never among them. */
export interface PipelineView {
  name: string;
  type: string;
  frequency: string;
  sync_enabled: boolean;
  last_dispatched: string | null;
  state: PipelineState;
  schema_type: string;
  data_source: string;
  data_format: string;
  from_date: string;
  to_date: string | null;
  destination: {
    bucket: string;
    region: string;
    prefix: string;
    endpoint: string | null;
    force_path_style: boolean;
    access_key_id: string | null;
    role: string | null;
  };
  warehouse: Pipeline['warehouse'] | null;
}

const iso = (date: Date | undefined) => (date ? date.toISOString() : null);

@Injectable()
export class PipelinesService {
  constructor(
    private readonly pipelines: PipelinesRepository,
    private readonly windows: PipelineWindowsRepository,
    private readonly runner: PipelineRunner,
    private readonly secrets: SecretBox,
    private readonly clock: Clock,
    private readonly outbound: OutboundPolicy,
  ) {}

  async create(scope: ProjectScope, fields: Record<string, unknown>): Promise<string[]> {
    const now = this.clock.date();
    const { definitions, secret } = parseCreatePipeline(fields, scope.projectId, now.toISOString().slice(0, 10));
    await this.checkDestination(definitions[0], fields.s3_endpoint ? 's3_endpoint' : 'destination');
    const created = await this.pipelines.insertAll(
      scope,
      definitions,
      secret === undefined ? undefined : this.secrets.seal(secret),
      now,
    );
    if ('taken' in created)
      throw new PipelineError(
        PipelineErrorCode.DuplicateName,
        `name: a pipeline named ${created.taken} already exists in project ${scope.projectId}`,
      );
    // The backfill starts now rather than at the next tick.
    for (const pipeline of created.pipelines) await this.runner.enqueueDue(pipeline);
    return created.pipelines.map((pipeline) => pipeline.name);
  }

  /** ClickHouse will send the destination's requests: only to addresses the outbound policy allows. */
  private async checkDestination(pipeline: Pick<Pipeline, 'destination'>, field: string): Promise<void> {
    try {
      await this.outbound.check(destinationHost(pipeline.destination), field);
    } catch (error) {
      if (error instanceof OutboundRefused) throw new PipelineError(PipelineErrorCode.InvalidParameter, error.message);
      throw error;
    }
  }

  async list(scope: ProjectScope): Promise<PipelineView[]> {
    const pipelines = await this.pipelines.list(scope);
    const lastSynced = await this.windows.lastSynced(pipelines.map((pipeline) => pipeline.id));
    return pipelines.map((pipeline) => this.view(pipeline, lastSynced.get(pipeline.id)));
  }

  private async find(scope: ProjectScope, name: string): Promise<Pipeline> {
    const pipeline = await this.pipelines.find(scope, name);
    if (!pipeline)
      throw new PipelineError(PipelineErrorCode.NotFound, `no pipeline named ${name} in project ${scope.projectId}`);
    return pipeline;
  }

  async pause(scope: ProjectScope, name: string): Promise<void> {
    const pipeline = await this.find(scope, name);
    await this.pipelines.setState(pipeline.id, ['active', 'paused'], 'paused');
  }

  /** Continues where it stopped: parked windows first, oldest first. */
  async resume(scope: ProjectScope, name: string): Promise<void> {
    const pipeline = await this.find(scope, name);
    if (await this.pipelines.setState(pipeline.id, ['paused', 'active'], 'active'))
      await this.runner.enqueueDue({ ...pipeline, state: 'active' });
  }

  /** For good: no window runs after this (a running one finishes); the name is free again. Exported objects stay. */
  async cancel(scope: ProjectScope, name: string): Promise<void> {
    const pipeline = await this.find(scope, name);
    await this.pipelines.setState(pipeline.id, ['active', 'paused'], 'cancelled');
  }

  async status(scope: ProjectScope, name: string) {
    const pipeline = await this.find(scope, name);
    const windows = await this.windows.all(pipeline.id);
    const last = windows.filter((w) => w.syncedAt.length).at(-1);
    const failing = windows
      .filter((w) => w.error !== null)
      .sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime())[0];
    return {
      name: pipeline.name,
      state: pipeline.state,
      last_run: last ? { window_start: iso(last.start), synced_at: iso(last.syncedAt.at(-1)), rows: last.rows } : null,
      last_error: failing
        ? { window_start: iso(failing.start), error: failing.error, at: iso(failing.updatedAt) }
        : null,
      windows: {
        done: windows.filter((w) => w.status === 'done').length,
        waiting: windows.filter((w) => w.status !== 'done').length,
      },
      next_run: pipeline.state === 'active' ? iso(this.nextRun(pipeline, windows)) : null,
    };
  }

  private nextRun(pipeline: Pipeline, windows: WindowRecord[]): Date | undefined {
    const waiting = windows.find((w) => w.status !== 'done');
    if (waiting) return this.clock.date();
    const next = windowAfter(pipeline, windows.at(-1)?.start);
    return next && windowDueAt(next, pipeline.createdAt);
  }

  /** Per UTC day: every time a window of that day was written, and whether the day is complete. */
  async timeline(scope: ProjectScope, name: string) {
    const pipeline = await this.find(scope, name);
    const windows = await this.windows.all(pipeline.id);
    const days = new Map<string, WindowRecord[]>();
    for (const w of windows)
      days.set(w.start.toISOString().slice(0, 10), [...(days.get(w.start.toISOString().slice(0, 10)) ?? []), w]);
    return [...days].map(([day, list]) => ({
      date: day,
      status: list.some((w) => w.status === 'failed' || w.status === 'retrying')
        ? 'failing'
        : list.every((w) => w.status === 'done')
          ? 'synced'
          : 'pending',
      synced_at: list
        .flatMap((w) => w.syncedAt)
        .sort((a, b) => a.getTime() - b.getTime())
        .map((d) => d.toISOString()),
      resyncs: list.reduce((n, w) => n + Math.max(0, w.syncedAt.length - 1), 0),
      rows: list.reduce((n, w) => n + (w.rows ?? 0), 0),
    }));
  }

  private view(pipeline: Pipeline, lastSynced: Date | undefined): PipelineView {
    const d = pipeline.destination;
    return {
      name: pipeline.name,
      type: pipeline.type,
      frequency: pipeline.frequency,
      sync_enabled: pipeline.sync,
      last_dispatched: iso(lastSynced),
      state: pipeline.state,
      schema_type: pipeline.schemaType,
      data_source: pipeline.dataSource,
      data_format: pipeline.dataFormat,
      from_date: pipeline.fromDate,
      to_date: pipeline.toDate ?? null,
      destination: {
        bucket: d.bucket,
        region: d.region,
        prefix: d.prefix,
        endpoint: d.endpoint ?? null,
        force_path_style: d.forcePathStyle,
        access_key_id: d.accessKeyId ?? null,
        role: d.role ?? null,
      },
      warehouse: pipeline.warehouse ?? null,
    };
  }
}
