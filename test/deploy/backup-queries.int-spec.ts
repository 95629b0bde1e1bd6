/**
 * The ClickHouse side of the backups against a real ClickHouse (chDB, or the test server): the backup
 * script's queries parse, the search names settings the server knows and its expression picks the
 * newest full backup; the engine logs' TTLs and engines are clauses a table accepts. The BACKUP itself
 * needs a cluster and an object store, which no test here has.
 */
import { useTestClickHouseClient } from '@analytics/testing';
import { resolve } from 'node:path';
import { BackupScriptSandbox } from './backup-script';
import { kustomize } from './kustomize';
import { Rendered } from './manifests';

describe('the ClickHouse backup script’s queries (real engine)', () => {
  const clickhouse = useTestClickHouseClient();
  const rendered = new Rendered(kustomize(resolve(__dirname, '../../deploy/k8s/overlays/dev')));
  const script = rendered.get('ConfigMap', 'analytics-clickhouse-backup').data!['clickhouse-backup.sh'];
  let sandbox: BackupScriptSandbox;
  let full: string[];
  let incremental: string[];
  beforeAll(() => {
    sandbox = new BackupScriptSandbox(script);
    full = sandbox.run({ BACKUP_TIME: '2026-12-02T023000Z' }).queries;
    incremental = sandbox.run({ BACKUP_TIME: '2026-12-05T023000Z', STUB_FULL: 'full-2026-11-29T023000Z' }).queries;
  });
  afterAll(() => sandbox.dispose());

  const rows = async <T>(query: string, query_params: Record<string, unknown>) =>
    (await clickhouse.client.query({ query, query_params, format: 'JSONEachRow' })).json<T>();

  it('sends queries ClickHouse parses: the search, a full BACKUP and an incremental one', async () => {
    const sent = [...full, ...incremental];
    expect(sent.map((q) => q.split(' ')[0])).toEqual(['SELECT', 'BACKUP', 'SELECT', 'BACKUP']);
    for (const query of sent) {
      const [{ formatted }] = await rows<{ formatted: string }>('SELECT formatQuery({query:String}) AS formatted', { query });
      expect(formatted.split(/\s/)[0]).toBe(query.split(' ')[0]);
    }
  });

  it('names only settings and an input format the server knows in the search', async () => {
    const names = / SETTINGS (.+)$/
      .exec(full[0])![1]
      .split(',')
      .map((setting) => setting.split('=')[0].trim());
    const known = await rows<{ name: string }>('SELECT name FROM system.settings WHERE name IN {names:Array(String)}', { names });
    expect(known.map((k) => k.name).sort()).toEqual([...names].sort());
    const [, format] = /, '(\w+)'\) SETTINGS /.exec(full[0])!;
    expect(await rows('SELECT name FROM system.formats WHERE name = {format:String} AND is_input', { format })).toEqual([{ name: format }]);
  });

  it('picks the newest full backup of the week from its .backup files, and none from an empty week', async () => {
    const expression = /^SELECT (.+) FROM s3\(/.exec(full[0])![1];
    const search = (paths: string[]) =>
      rows<{ found: string }>(`SELECT ${expression} AS found FROM (SELECT arrayJoin({paths:Array(String)}) AS _path)`, { paths });
    const week = 'analytics-backups/clickhouse/2026-11-29';
    expect(await search([`${week}/full-2026-11-29T023000Z/.backup`, `${week}/full-2026-12-01T023000Z/.backup`])).toEqual([
      { found: 'full-2026-12-01T023000Z' },
    ]);
    expect(await search([])).toEqual([{ found: '' }]);
  });

  it('gives the engine logs TTLs and engines a table with their date and time columns accepts', async () => {
    const settings: Record<string, string> = rendered.one('ClickHouseInstallation').spec.configuration.settings;
    const logs = Object.entries(settings).filter(([key]) => /_log\/(ttl|engine)$/.test(key));
    expect(logs.length).toBeGreaterThan(0);
    for (const [i, [key, value]] of logs.entries()) {
      // The server builds a log's table from `engine` as given, or from its default engine with `ttl` appended.
      const engine = key.endsWith('/engine') ? value : `ENGINE = MergeTree PARTITION BY toYYYYMM(event_date) ORDER BY event_time TTL ${value}`;
      await clickhouse.client.command({ query: `CREATE TABLE log_${i} (event_date Date, event_time DateTime) ${engine}` });
      const [{ ttl }] = await rows<{ ttl: string }>('SELECT extract(create_table_query, \' TTL (.+?)(?: SETTINGS |$)\') AS ttl FROM system.tables WHERE database = currentDatabase() AND name = {name:String}', {
        name: `log_${i}`,
      });
      expect({ key, ttl }).toEqual({ key, ttl: expect.stringMatching(/^event_date \+ toIntervalDay\(\d+\)$/) });
    }
  });
});
