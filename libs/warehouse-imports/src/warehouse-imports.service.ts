import { IdSource } from '@analytics/clock';
import { RateLimit, RateLimiterFactory } from '@analytics/rate-limits';
import { JobQueue } from '@analytics/jobs';
import { OutboundPolicy, OutboundRefused } from '@analytics/outbound';
import { ProjectScope } from '@analytics/tenancy';
import { Injectable, Optional } from '@nestjs/common';
import { CredentialsCipher } from './credentials-cipher';
import { ImportKind, parseImportDefinition, parseRunEvery } from './import-definition';
import { WAREHOUSE_RUN_QUEUE } from './warehouse-import-settings';
import { PostgresReader } from './warehouse-reader';
import { invalid, WarehouseImportsError, WarehouseImportsErrorCode } from './warehouse-imports-error';
import { ImportRun, StoredImport, StoredSource, WarehouseImportsRepository } from './warehouse-imports.repository';
import { parseSourceDefinition, SourceType } from './warehouse-source';

/** The real product keeps the last 30 runs on show. */
export const HISTORY_LENGTH = 30;
/** Manual syncs allowed per import and hour (429 beyond). */
export const MANUAL_SYNCS_PER_HOUR = 5;

const notFound = (what: string) =>
  new WarehouseImportsError(WarehouseImportsErrorCode.NotFound, `${what} not found in this project`);

/**
 * The rules of the warehouse-import API. It only writes the wish (an import, a pause, a manual
 * sync, a deletion) to Postgres, and files a run job for a manual sync: the worker role acts on
 * them, so this service needs no Kafka.
 */
@Injectable()
export class WarehouseImportsService {
  private readonly manualSyncs: RateLimit;

  constructor(
    private readonly repository: WarehouseImportsRepository,
    private readonly cipher: CredentialsCipher,
    rateLimits: RateLimiterFactory,
    private readonly outbound: OutboundPolicy,
    private readonly ids: IdSource,
    @Optional() private readonly queue?: JobQueue,
  ) {
    this.manualSyncs = rateLimits.create({
      name: 'warehouse-manual-sync',
      points: MANUAL_SYNCS_PER_HOUR,
      durationSeconds: 3600,
    });
  }

  /** Postgres sources are connected to first: a source that cannot be reached is refused with the driver's reason. */
  async createSource(scope: ProjectScope, body: unknown): Promise<StoredSource> {
    const source = parseSourceDefinition(body);
    if (source.type === 'postgres') {
      try {
        await (await PostgresReader.connect(source.connection, this.outbound)).close();
      } catch (error) {
        if (error instanceof OutboundRefused) throw invalid(error.message);
        throw new WarehouseImportsError(
          WarehouseImportsErrorCode.ConnectionFailed,
          `connection test failed: ${(error as Error).message}`,
        );
      }
    }
    return this.repository.createSource(scope, source, await this.cipher.seal(source.connection));
  }

  listSources(scope: ProjectScope): Promise<StoredSource[]> {
    return this.repository.listSources(scope);
  }

  async source(scope: ProjectScope, id: number): Promise<StoredSource> {
    return (await this.repository.source(scope, id)) ?? Promise.reject(notFound(`warehouse source ${id}`));
  }

  async deleteSource(scope: ProjectScope, id: number): Promise<void> {
    await this.source(scope, id);
    if (!(await this.repository.deleteSource(scope, id))) {
      throw new WarehouseImportsError(
        WarehouseImportsErrorCode.InUse,
        `warehouse source ${id} still has imports: delete them first`,
      );
    }
  }

  async createImport(scope: ProjectScope, kind: ImportKind, body: unknown): Promise<number> {
    const sourceId = (body as { warehouse_source_id?: unknown } | null)?.warehouse_source_id;
    const source =
      Number.isSafeInteger(Number(sourceId)) && Number(sourceId) > 0
        ? await this.repository.source(scope, Number(sourceId))
        : undefined;
    if (!source) throw invalid('warehouse_source_id is required: the id of a warehouse source of this project');
    return this.repository.createImport(scope, parseImportDefinition(kind, body, source.type as SourceType));
  }

  listImports(scope: ProjectScope): Promise<StoredImport[]> {
    return this.repository.listImports(scope);
  }

  async import(scope: ProjectScope, id: number): Promise<StoredImport> {
    return (await this.repository.import(scope, id)) ?? Promise.reject(notFound(`warehouse import ${id}`));
  }

  async updateImport(scope: ProjectScope, id: number, body: Record<string, unknown>): Promise<StoredImport> {
    if (typeof body.paused !== 'boolean') throw invalid('paused is required: true or false');
    const runEvery = body.run_every === undefined ? undefined : parseRunEvery(body.run_every);
    if (!(await this.repository.updateImport(scope, id, body.paused, runEvery)))
      throw notFound(`warehouse import ${id}`);
    return this.import(scope, id);
  }

  /** The import goes at once for the API; the worker removes its data (delete_data) and then its record. */
  async deleteImport(scope: ProjectScope, id: number, deleteData: unknown): Promise<void> {
    if (deleteData !== undefined && typeof deleteData !== 'boolean') throw invalid('delete_data must be true or false');
    if (!(await this.repository.markDeleting(scope, id, deleteData === true))) throw notFound(`warehouse import ${id}`);
  }

  async history(scope: ProjectScope, id: number): Promise<ImportRun[]> {
    await this.import(scope, id);
    return this.repository.history(id, HISTORY_LENGTH);
  }

  async manualSync(scope: ProjectScope, id: number): Promise<void> {
    const found = await this.import(scope, id);
    if (found.paused)
      throw invalid(`warehouse import ${id} is paused: resume it (PATCH with "paused": false) before a manual sync`);
    const decision = await this.manualSyncs.consume(`${scope.projectId}:${id}`);
    if (!decision.allowed) {
      throw new WarehouseImportsError(
        WarehouseImportsErrorCode.TooManyManualSyncs,
        `at most ${MANUAL_SYNCS_PER_HOUR} manual syncs per import and hour`,
        decision.retryAfterSeconds,
      );
    }
    await this.repository.requestManualSync(scope, id);
    // A run job now (a worker claims it within its polling interval); the minute tick is the fallback.
    await this.queue?.enqueue(WAREHOUSE_RUN_QUEUE, { importId: id }, { key: `${id}:manual:${this.ids.uuid()}` });
  }
}
