import { ClickHouseClient, parseClickHouseUrl } from '@analytics/clickhouse';
import { AppConfig } from '@analytics/config';
import { LocalObjectStore, ObjectStore, objectKey } from '@analytics/object-store';
import { ChBoundQuery } from '@analytics/tenancy';
import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { PassThrough } from 'node:stream';
import { createGzip } from 'node:zlib';
import { retrievalFileSql, retrievalLinesSql, RetrievalScope } from './retrieval-sql';

/**
 * Writes a retrieval file: gzip NDJSON, one line per event (the raw export's format), one per
 * profile and one per id with group memberships. With chDB and the local folder, ClickHouse writes the file itself (`file(…)`); otherwise
 * its output streams through gzip into the store, a part at a time, so memory stays flat either way.
 */
@Injectable()
export class RetrievalRepository {
  private readonly inProcess: boolean;

  constructor(
    @Inject(ClickHouseClient) private readonly clickhouse: ClickHouseClient,
    private readonly store: ObjectStore,
    config: AppConfig,
  ) {
    this.inProcess = parseClickHouseUrl(config.clickhouseUrl).kind === 'chdb';
  }

  async write(key: string, scope: RetrievalScope, signal?: AbortSignal): Promise<void> {
    const lines = retrievalLinesSql(scope);
    if (this.inProcess && this.store instanceof LocalObjectStore)
      return this.writeFile(this.store.root, key, lines, signal);
    const result = await this.clickhouse.exec({
      query: `${lines.sql} FORMAT TabSeparatedRaw`,
      query_params: lines.params,
      abort_signal: signal,
    });
    const body = new PassThrough();
    const gzipped = pipeline(result.stream, createGzip(), body);
    await Promise.all([this.store.put(key, body, { contentType: 'application/gzip' }), gzipped]);
  }

  /** ClickHouse writes into the store's folder (a temporary name, renamed into place: readers never see part of it). */
  private async writeFile(root: string, key: string, lines: ChBoundQuery, signal?: AbortSignal): Promise<void> {
    const partial = join(root, '.partial', `${randomUUID()}.ndjson.gz`);
    await mkdir(dirname(partial), { recursive: true });
    try {
      const { sql, params } = retrievalFileSql(partial, lines);
      await this.clickhouse.command({ query: sql, query_params: params, abort_signal: signal });
      const target = join(root, ...objectKey(key).split('/'));
      await mkdir(dirname(target), { recursive: true });
      await rename(partial, target);
    } finally {
      await rm(partial, { force: true });
    }
  }
}
