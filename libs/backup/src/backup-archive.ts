import { ClickHouseClient, ClickHouseMigrator, streamQuery } from '@analytics/clickhouse';
import { Clock } from '@analytics/clock';
import { AppConfig } from '@analytics/config';
import { installationSecret, ObjectStore } from '@analytics/object-store';
import { Postgres, PostgresMigrator } from '@analytics/postgres';
import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { appVersion } from './app-version';
import {
  BACKUP_FORMAT,
  BackupFile,
  BackupHeader,
  BackupManifest,
  BackupObject,
  BackupTable,
  HEADER_FILE,
  MANIFEST_FILE,
  objectFile,
  POSTGRES_FILE,
  quotedTable,
  SECRET_FILE,
  tablePart,
} from './backup-manifest';
import { tarEnd, tarHeader, tarPadding } from './tar';

/** Table engines whose rows a backup copies with a SELECT and a restore puts back with an INSERT. */
const COPIED_ENGINES = /MergeTree$|^Join$/;
/** A table's rows go into parts of about this size: few tar headers, and never a whole table in memory. */
const PART_BYTES = 4 << 20;

/**
 * Writes a backup of the embedded engines as a tar stream (docs/backup.md), pulled chunk by chunk by the response:
 * nothing is read ahead of what the client takes. Each ClickHouse table is a snapshot of its own (one SELECT in
 * Native format); PGlite's data directory is dumped whole, between two of its queries; objects are read as stored.
 */
@Injectable()
export class BackupArchive {
  constructor(
    @Inject(ClickHouseClient) private readonly clickhouse: ClickHouseClient,
    private readonly clickhouseMigrations: ClickHouseMigrator,
    private readonly postgres: Postgres,
    private readonly postgresMigrations: PostgresMigrator,
    private readonly objects: ObjectStore,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  async *write(): AsyncGenerator<Buffer> {
    const header: BackupHeader = {
      format: BACKUP_FORMAT,
      created: this.clock.date().toISOString(),
      app_version: appVersion(),
    };
    const files: Record<string, BackupFile> = {};
    yield* this.buffer(HEADER_FILE, Buffer.from(JSON.stringify(header, null, 2)));
    const postgres = { migrations: await this.postgresMigrations.applied(), file: POSTGRES_FILE };
    const dump = await this.postgres.dumpDataDir();
    yield* this.entry(POSTGRES_FILE, dump.size, dump.stream() as AsyncIterable<Uint8Array>, files);
    const clickhouse = { migrations: await this.clickhouseMigrations.applied(), tables: [] as BackupTable[] };
    for (const table of await this.tables()) {
      clickhouse.tables.push(table);
      yield* this.tableRows(table, files);
    }
    const objects: BackupObject[] = [];
    for (const { key } of await this.objects.list()) {
      const stored = await this.objects.get(key);
      if (!stored) continue; // deleted since the listing
      objects.push({ key, content_type: stored.contentType, file: objectFile(key) });
      yield* this.entry(objectFile(key), stored.size, stored.body, files);
    }
    const secret = this.config.downloadLinks.secret ? null : SECRET_FILE;
    if (secret) yield* this.buffer(SECRET_FILE, Buffer.from(`${await installationSecret(this.config)}\n`), files);
    const manifest: BackupManifest = { ...header, clickhouse, postgres, objects, download_link_secret: secret, files };
    yield* this.buffer(MANIFEST_FILE, Buffer.from(JSON.stringify(manifest, null, 2)));
    yield tarEnd();
  }

  private async tables(): Promise<BackupTable[]> {
    const result = await this.clickhouse.query({
      query: `SELECT name, engine, create_table_query AS create FROM system.tables
              WHERE database = currentDatabase() AND NOT is_temporary ORDER BY name`,
      format: 'JSONEachRow',
    });
    const tables = await result.json<{ name: string; engine: string; create: string }>();
    return tables.map(({ name, engine, create }) => {
      // A view or another engine would need its own way back (a materialized view would fill twice): refuse it.
      if (!COPIED_ENGINES.test(engine))
        throw new Error(`the backup does not know how to copy ${name} (engine ${engine})`);
      return { name, engine, create, rows: 0, parts: 0 };
    });
  }

  /** The table's rows in parts of about PART_BYTES; `table` gets its row and part counts. */
  private async *tableRows(table: BackupTable, files: Record<string, BackupFile>): AsyncGenerator<Buffer> {
    let held: Buffer[] = [];
    let heldBytes = 0;
    const flush = () => {
      const part = Buffer.concat(held);
      held = [];
      heldBytes = 0;
      return this.buffer(tablePart(table.name, table.parts++), part, files);
    };
    const query = `SELECT * FROM ${quotedTable(table.name)}`;
    for await (const { bytes, rows } of streamQuery(this.clickhouse, { query, format: 'Native' })) {
      held.push(bytes);
      heldBytes += bytes.length;
      table.rows += rows ?? 0;
      if (heldBytes >= PART_BYTES) yield* flush();
    }
    if (heldBytes > 0) yield* flush();
  }

  /** One file: header, bytes, padding; its size and checksum go into `files` when given. */
  private async *entry(
    path: string,
    size: number,
    body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
    files?: Record<string, BackupFile>,
  ): AsyncGenerator<Buffer> {
    const hash = createHash('sha256');
    let written = 0;
    yield tarHeader({ path, size });
    for await (const chunk of body) {
      const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, Math.min(chunk.byteLength, size - written));
      hash.update(bytes);
      written += bytes.length;
      if (bytes.length) yield bytes;
      if (written === size) break;
    }
    // A file that shrank while it was read cannot fill its header's size: the backup stops rather than lie.
    if (written !== size) throw new Error(`${path} changed while it was copied (${written} of ${size} bytes)`);
    yield tarPadding(size);
    if (files) files[path] = { bytes: size, sha256: hash.digest('hex') };
  }

  private buffer(path: string, bytes: Buffer, files?: Record<string, BackupFile>): AsyncGenerator<Buffer> {
    return this.entry(path, bytes.length, [bytes], files);
  }
}
