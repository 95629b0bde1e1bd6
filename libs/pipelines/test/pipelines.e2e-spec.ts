import { ClickHouseClient } from '@analytics/clickhouse';
import { EVENTS_TABLE } from '@analytics/event-store';
import { Postgres, selectRows } from '@analytics/postgres';
import { eventually } from '@analytics/testing';
import { projectScope } from '@analytics/tenancy';
import { sql } from 'drizzle-orm';
import { PipelineWindowsRepository } from '../src/pipeline-windows.repository';
import { PipelinesRepository } from '../src/pipelines.repository';
import { parseCreatePipeline } from '../src/pipeline-request';
import { at, BUCKET, byInsertId, daysAgo, PipelinesHarness, RawEvent } from './pipelines-harness';

const ymd = (day: string) => day.replace(/-/g, '/');
const event = (
  name: string,
  day: string,
  time: string,
  user: string,
  id: string,
  properties: Record<string, unknown> = {},
): RawEvent => ({
  event: name,
  properties: { time: at(day, time), distinct_id: user, $insert_id: id, ...properties },
});

describe('data pipelines into an S3-compatible store (s3rver)', () => {
  let h: PipelinesHarness;
  const d1 = daysAgo(3);
  const d2 = daysAgo(2);

  beforeAll(async () => {
    h = await PipelinesHarness.start();
  });
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(() => h.clock.set(Date.now()));

  const status = async (auth: string, name: string) => {
    const answer = await h.call('GET', 'status', auth, { name });
    expect(answer.status).toBe(200);
    return answer.body;
  };
  const windowsDone = (auth: string, name: string, done: number) =>
    eventually(async () => expect((await status(auth, name)).windows).toEqual({ done, waiting: 0 }), {
      timeoutMs: 45_000,
    });

  it('exports two past days as gzip NDJSON whose rows are exactly the raw export of each day, manifest last; a late event re-syncs its day without duplicates', async () => {
    const p = await h.project('json');
    await h.import(p.auth, [
      event('Signed up', d1, '00:00:00', 'ann', 'a1', {
        plan: 'pro',
        text: 'héllo "q" \\ \n\t 😀',
        nested: { list: [1, 'two', null] },
        $browser: 'Chrome',
      }),
      event('Purchase', d1, '12:30:00', 'ann', 'a2', { amount: 12.5 }),
      event('Purchase', d1, '23:59:59', 'bob', 'b1', { amount: 3 }),
      event('Signed up', d2, '08:00:00', 'cat', 'c1'),
      event('Purchase', d2, '09:00:00', 'cat', 'c2', { amount: 1 }),
      // Outside the pipeline's days.
      event('Signed up', daysAgo(4), '10:00:00', 'dan', 'd1'),
      event('Signed up', daysAgo(1), '10:00:00', 'dan', 'd2'),
    ]);
    // A duplicate (same dedup key) sent again: exported once.
    await h.import(p.auth, [event('Purchase', d1, '12:30:00', 'ann', 'a2', { amount: 12.5 })]);

    const created = await h.call('POST', 'create', p.auth, {
      ...h.destination('exports/json'),
      from_date: d1,
      to_date: d2,
    });
    expect(created).toEqual({ status: 200, body: { pipeline_names: ['events-daily-s3-raw-monoschema'] } });
    const name = 'events-daily-s3-raw-monoschema';
    await windowsDone(p.auth, name, 2);

    const base = `exports/json/${p.id}`;
    expect(await h.objectKeys('exports/json/')).toEqual([
      `${base}/mp_manifest/${ymd(d1)}.json`,
      `${base}/mp_manifest/${ymd(d2)}.json`,
      `${base}/mp_master_event/${ymd(d1)}/data.json.gz`,
      `${base}/mp_master_event/${ymd(d2)}/data.json.gz`,
    ]);
    for (const day of [d1, d2]) {
      const raw = await h.rawExport(p.auth, day, day);
      const written = await h.jsonLines(`${base}/mp_master_event/${ymd(day)}/data.json.gz`);
      expect(byInsertId(written)).toEqual(byInsertId(raw));
      const manifest = JSON.parse((await h.object(`${base}/mp_manifest/${ymd(day)}.json`)).toString());
      expect(manifest).toMatchObject({
        pipeline: name,
        project_id: p.id,
        format: 'json',
        rows: raw.length,
        objects: [{ table: 'mp_master_event', key: `${base}/mp_master_event/${ymd(day)}/data.json.gz` }],
      });
    }
    expect(
      (await h.jsonLines(`${base}/mp_master_event/${ymd(d1)}/data.json.gz`)).map((e) => e.properties.$insert_id).sort(),
    ).toEqual(['a1', 'a2', 'b1']);

    const listed = await h.call('GET', 'jobs', p.auth, { project_id: String(p.id) });
    expect(listed.status).toBe(200);
    // `last_dispatched` is the latest time any window of the pipeline was written.
    const written = await h.call('GET', 'timeline', p.auth, { name });
    const lastWritten = (written.body.days as { synced_at: string[] }[])
      .flatMap((day) => day.synced_at)
      .sort()
      .at(-1);
    expect(lastWritten).toEqual(expect.any(String));
    expect(listed.body[p.id]).toEqual([
      expect.objectContaining({
        name,
        frequency: 'daily',
        sync_enabled: true,
        last_dispatched: lastWritten,
        state: 'active',
      }),
    ]);
    expect(JSON.stringify(listed.body)).not.toMatch(/secret/i);
    const [stored] = await selectRows<{ secret_sealed: string }>(
      h.app.get(Postgres).db,
      sql`select secret_sealed from pipelines where project_id = ${p.id}`,
    );
    expect(stored.secret_sealed).toMatch(/^v1\$/);

    // Nothing changed: a tick exports nothing again.
    await h.runner.tick();
    expect((await status(p.auth, name)).windows).toEqual({ done: 2, waiting: 0 });

    // A late event for the first day: the next tick re-exports that day only.
    await h.import(p.auth, [event('Purchase', d1, '18:00:00', 'eve', 'late-1', { amount: 7 })]);
    await eventually(async () => expect((await h.rawExport(p.auth, d1, d1)).length).toBe(4));
    await h.runner.tick();
    await eventually(
      async () => {
        const written = await h.jsonLines(`${base}/mp_master_event/${ymd(d1)}/data.json.gz`);
        expect(written.map((e) => e.properties.$insert_id).sort()).toEqual(['a1', 'a2', 'b1', 'late-1']);
      },
      { timeoutMs: 30_000 },
    );
    expect(byInsertId(await h.jsonLines(`${base}/mp_master_event/${ymd(d1)}/data.json.gz`))).toEqual(
      byInsertId(await h.rawExport(p.auth, d1, d1)),
    );
    const timeline = await eventually(async () => {
      const answer = (await h.call('GET', 'timeline', p.auth, { name })).body;
      expect(answer.days[0]).toMatchObject({ date: d1, status: 'synced', resyncs: 1, rows: 4 });
      return answer;
    });
    expect(timeline.days[0].synced_at).toHaveLength(2);
    expect(timeline.days[1]).toMatchObject({ date: d2, status: 'synced', resyncs: 0, rows: 2 });
    expect(timeline.days[1].synced_at).toHaveLength(1);

    // A deletion (as compliance makes them) reaches the destination the same way.
    await h.app.get<ClickHouseClient>(ClickHouseClient).command({
      query: `DELETE FROM ${EVENTS_TABLE} WHERE project_id = {project:UInt32} AND insert_id = 'b1'`,
      query_params: { project: p.id },
    });
    await h.runner.tick();
    await eventually(
      async () => {
        const written = await h.jsonLines(`${base}/mp_master_event/${ymd(d1)}/data.json.gz`);
        expect(written.map((e) => e.properties.$insert_id).sort()).toEqual(['a1', 'a2', 'late-1']);
      },
      { timeoutMs: 30_000 },
    );
    expect(byInsertId(await h.jsonLines(`${base}/mp_master_event/${ymd(d1)}/data.json.gz`))).toEqual(
      byInsertId(await h.rawExport(p.auth, d1, d1)),
    );
  });

  it('exports typed Parquet, one prefix per event with cleaned names, rows equal to the raw export', async () => {
    const p = await h.project('parquet');
    await h.import(p.auth, [
      event('Signed Up', d1, '01:00:00', 'ann', 'p1', { plan: 'pro' }),
      event('$mp_web_page_view', d1, '02:00:00', 'ann', 'p2', { url: 'https://example.com/?a=1' }),
      event('Purchase!', d1, '03:00:00', 'bob', 'p3', { amount: 9.99, items: ['a', 'b'] }),
      event('Signed Up', d2, '04:00:00', 'cat', 'p4'),
    ]);
    const created = await h.call('POST', 'create', p.auth, {
      ...h.destination('exports/parquet'),
      from_date: d1,
      to_date: d2,
      data_format: 'parquet',
      schema_type: 'multischema',
      sync: 'false',
    });
    expect(created.body).toEqual({ pipeline_names: ['events-daily-s3-raw-multischema'] });
    await windowsDone(p.auth, 'events-daily-s3-raw-multischema', 2);

    const base = `exports/parquet/${p.id}`;
    const keys = (await h.objectKeys(`${base}/`)).filter((k) => k.endsWith('.parquet'));
    expect(keys).toEqual([
      `${base}/mp_mp_web_page_view/${ymd(d1)}/data.parquet`,
      `${base}/purchase_/${ymd(d1)}/data.parquet`,
      `${base}/signed_up/${ymd(d1)}/data.parquet`,
      `${base}/signed_up/${ymd(d2)}/data.parquet`,
    ]);
    const { parquetReadObjects } = await import('hyparquet');
    const tableEvent: Record<string, string> = {
      mp_mp_web_page_view: '$mp_web_page_view',
      purchase_: 'Purchase!',
      signed_up: 'Signed Up',
    };
    for (const day of [d1, d2]) {
      const rows: RawEvent[] = [];
      for (const key of keys.filter((k) => k.includes(`/${ymd(day)}/`))) {
        const bytes = await h.object(key);
        const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
        for (const row of (await parquetReadObjects({ file })) as Record<string, any>[]) {
          expect(Object.keys(row).sort()).toEqual([
            'distinct_id',
            'insert_id',
            'mp_processing_time_ms',
            'properties',
            'time',
          ]);
          // The raw export's line, rebuilt from the typed columns.
          rows.push({
            event: tableEvent[key.split('/')[3]],
            properties: {
              time: Math.floor(new Date(row.time).getTime() / 1000),
              distinct_id: row.distinct_id,
              $insert_id: row.insert_id,
              mp_processing_time_ms: Number(row.mp_processing_time_ms),
              ...JSON.parse(row.properties),
            },
          });
        }
      }
      expect(byInsertId(rows)).toEqual(byInsertId(await h.rawExport(p.auth, day, day)));
    }
  });

  it('writes mp_master_event with mp_event_name in Parquet', async () => {
    const p = await h.project('parquet-mono');
    await h.import(p.auth, [
      event('Signed Up', d2, '01:00:00', 'ann', 'm1'),
      event('Purchase', d2, '02:00:00', 'ann', 'm2'),
    ]);
    await h.call('POST', 'create', p.auth, {
      ...h.destination('exports/mono'),
      from_date: d2,
      to_date: d2,
      data_format: 'parquet',
    });
    await windowsDone(p.auth, 'events-daily-s3-raw-monoschema', 1);
    const bytes = await h.object(`exports/mono/${p.id}/mp_master_event/${ymd(d2)}/data.parquet`);
    const { parquetReadObjects } = await import('hyparquet');
    const rows = (await parquetReadObjects({
      file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
    })) as Record<string, any>[];
    expect(rows.map((r) => [r.mp_event_name, r.insert_id]).sort()).toEqual([
      ['Purchase', 'm2'],
      ['Signed Up', 'm1'],
    ]);
  });

  it('names the field of every bad value with a 400, refuses a second pipeline of the same name, answers 404 for unknown names', async () => {
    const p = await h.project('validation');
    const ok = { ...h.destination('v'), from_date: d1 };
    const cases: [Record<string, string>, RegExp][] = [
      [{ ...ok, type: '' }, /^type: is required/],
      [{ ...ok, type: 'ftp' }, /^type: must be one of/],
      [{ ...ok, from_date: '2024-02-30' }, /^from_date: must be a date/],
      [{ ...ok, to_date: daysAgo(5) }, /^to_date: .* is before from_date/],
      [{ ...ok, frequency: 'weekly' }, /^frequency: must be one of hourly, daily/],
      [{ ...ok, schema_type: 'star' }, /^schema_type: /],
      [{ ...ok, data_source: 'groups' }, /^data_source: /],
      [{ ...ok, data_format: 'csv' }, /^data_format: /],
      [{ ...ok, sync: 'maybe' }, /^sync: must be true or false/],
      [{ ...ok, s3_bucket: 'Bad_Bucket' }, /^s3_bucket: must be a bucket name/],
      [{ ...ok, s3_prefix: '../up' }, /^s3_prefix: /],
      [{ ...ok, s3_endpoint: 'ftp://x' }, /^s3_endpoint: /],
      [{ ...ok, s3_endpoint: "http://x/'" }, /^s3_endpoint: /],
      [{ ...ok, s3_secret_access_key: '' }, /^s3_secret_access_key: is required with the other key/],
      [{ ...ok, gcs_bucket: 'x' }, /^gcs_bucket: is not a field of s3-raw pipelines/],
      [{ ...ok, type: 'bigquery' }, /^s3_bucket: is not a field of bigquery pipelines/],
      [{ ...ok, type: 'azure-raw', s3_bucket: undefined as unknown as string }, /^/],
    ];
    for (const [fields, message] of cases) {
      const clean = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
      const answer = await h.call('POST', 'create', p.auth, clean);
      expect([answer.status, answer.body.error]).toEqual([400, expect.stringMatching(message)]);
    }
    expect((await h.call('POST', 'create', p.auth, { ...ok, from_date: daysAgo(-2) })).body.error).toMatch(
      /^from_date: cannot be later than today/,
    );

    const today = daysAgo(0);
    expect((await h.call('POST', 'create', p.auth, { ...ok, from_date: today })).status).toBe(200);
    const again = await h.call('POST', 'create', p.auth, { ...ok, from_date: today });
    expect([again.status, again.body.error]).toEqual([
      400,
      'name: a pipeline named events-daily-s3-raw-monoschema already exists in project ' + p.id,
    ]);
    for (const action of ['pause', 'resume', 'cancel'])
      expect((await h.call('POST', action, p.auth, { name: 'events-hourly-nothing' })).status).toBe(404);
    expect((await h.call('POST', 'pause', p.auth, {})).body.error).toBe('name: is required');
    expect((await h.call('GET', 'status', p.auth, { name: 'nope' })).status).toBe(404);
  });

  it('a trial without from_date creates its events and people pipelines, 30 days from yesterday, daily, without sync; all or none', async () => {
    const p = await h.project('trial');
    const { type: _type, s3_bucket: bucket, s3_region: _region, s3_prefix: _prefix, ...keys } = h.destination('trial');
    const trial = {
      type: 'gcs-raw',
      trial: 'true',
      gcs_bucket: bucket,
      gcs_region: 'us-central1',
      gcs_prefix: 'trial',
      ...keys,
    };
    // One of the two names taken: nothing is created.
    expect((await h.call('POST', 'create', p.auth, { ...trial, data_source: 'people' })).body).toEqual({
      pipeline_names: ['trial-people-daily-gcs-raw-monoschema'],
    });
    const refused = await h.call('POST', 'create', p.auth, trial);
    expect([refused.status, refused.body.error]).toEqual([
      400,
      `name: a pipeline named trial-people-daily-gcs-raw-monoschema already exists in project ${p.id}`,
    ]);
    expect((await h.call('GET', 'jobs', p.auth, { project_id: String(p.id) })).body[p.id]).toHaveLength(1);
    await h.call('POST', 'cancel', p.auth, { name: 'trial-people-daily-gcs-raw-monoschema' });

    const created = await h.call('POST', 'create', p.auth, trial);
    expect(created).toEqual({
      status: 200,
      body: { pipeline_names: ['trial-events-daily-gcs-raw-monoschema', 'trial-people-daily-gcs-raw-monoschema'] },
    });
    const yesterday = new Date(h.clock.now() - 86_400_000).toISOString().slice(0, 10);
    const last = new Date(h.clock.now() + 28 * 86_400_000).toISOString().slice(0, 10);
    const listed = (await h.call('GET', 'jobs', p.auth, { project_id: String(p.id) })).body[p.id];
    expect(listed).toEqual(
      ['events', 'people'].map((source) =>
        expect.objectContaining({
          name: `trial-${source}-daily-gcs-raw-monoschema`,
          data_source: source,
          frequency: 'daily',
          sync_enabled: false,
          from_date: yesterday,
          to_date: last,
        }),
      ),
    );
  });

  it('pause stops new windows, resume continues where it stopped, cancel stops for good', async () => {
    const p = await h.project('lifecycle');
    const yesterday = daysAgo(1);
    await h.import(p.auth, [
      event('Seen', yesterday, '10:00:00', 'ann', 'l1'),
      event('Seen', daysAgo(0), '00:00:01', 'ann', 'l2'),
    ]);
    const name = (await h.call('POST', 'create', p.auth, { ...h.destination('exports/life'), from_date: yesterday }))
      .body.pipeline_names[0];
    await windowsDone(p.auth, name, 1);
    const nextRun = (await status(p.auth, name)).next_run as string;
    // Today's window closes at midnight and runs at 00:30, as the real API's daily pipelines.
    expect(nextRun).toBe(new Date(Date.parse(`${daysAgo(0)}T00:00:00Z`) + 86_400_000 + 30 * 60_000).toISOString());

    expect((await h.call('POST', 'pause', p.auth, { name })).status).toBe(200);
    h.clock.set(Date.parse(nextRun) + 1000);
    await h.runner.tick();
    const pipeline = (await h.app.get(PipelinesRepository).find(projectScope(p.id), name))!;
    const windows = h.app.get(PipelineWindowsRepository);
    // A paused pipeline is not scheduled.
    expect((await windows.all(pipeline.id)).map((w) => w.status)).toEqual(['done']);
    // A window job enqueued just before the pause finds the pipeline paused and parks the window (a new generation for the resume).
    await h.runner.enqueueDue(pipeline);
    await eventually(async () =>
      expect((await windows.all(pipeline.id)).map((w) => [w.status, w.generation])).toEqual([
        ['done', 0],
        ['pending', 1],
      ]),
    );
    expect((await status(p.auth, name)).state).toBe('paused');
    expect(await h.objectKeys(`exports/life/${p.id}/mp_master_event/${ymd(daysAgo(0))}`)).toEqual([]);

    expect((await h.call('POST', 'resume', p.auth, { name })).status).toBe(200);
    await windowsDone(p.auth, name, 2);
    expect(
      (await h.jsonLines(`exports/life/${p.id}/mp_master_event/${ymd(daysAgo(0))}/data.json.gz`)).map(
        (e) => e.properties.$insert_id,
      ),
    ).toEqual(['l2']);

    expect((await h.call('POST', 'cancel', p.auth, { name })).status).toBe(200);
    expect((await h.call('GET', 'status', p.auth, { name })).status).toBe(404);
    expect((await h.call('GET', 'jobs', p.auth, { project_id: String(p.id) })).body).toEqual({ [p.id]: [] });
    h.clock.set(Date.parse(nextRun) + 2 * 86_400_000);
    await h.runner.tick();
    expect(await windows.all(pipeline.id)).toHaveLength(2);
    // The name is free again.
    expect(
      (await h.call('POST', 'create', p.auth, { ...h.destination('exports/life2'), from_date: daysAgo(0) })).status,
    ).toBe(200);
  });

  it('two replicas scheduling at once export each window once', async () => {
    const p = await h.project('replicas');
    await h.import(p.auth, [
      event('Seen', daysAgo(5), '10:00:00', 'ann', 'r1'),
      event('Seen', daysAgo(3), '10:00:00', 'ann', 'r2'),
    ]);
    const name = (
      await h.call('POST', 'create', p.auth, {
        ...h.destination('exports/replicas'),
        from_date: daysAgo(6),
        to_date: daysAgo(2),
      })
    ).body.pipeline_names[0];
    // Every replica's tick enqueues the due windows; the keyed job id makes one job of each.
    await Promise.all([h.runner.tick(), h.runner.tick(), h.runner.tick()]);
    await windowsDone(p.auth, name, 5);
    const pipeline = (await h.app.get(PipelinesRepository).find(projectScope(p.id), name))!;
    const windows = await h.app.get(PipelineWindowsRepository).all(pipeline.id);
    expect(windows.map((w) => w.syncedAt.length)).toEqual([1, 1, 1, 1, 1]);
    const jobs = await selectRows<{ n: number }>(
      h.app.get(Postgres).db,
      sql`select count(*)::int as n from pgboss.job where name = 'pipeline-window' and (data->>'pipelineId')::int = ${pipeline.id}`,
    );
    expect(jobs[0].n).toBe(5);
  });

  it('refuses destinations outside the outbound policy: 400 at creation, and at run time a status error, never contacting them', async () => {
    const p = await h.project('outbound');
    for (const endpoint of [
      'http://169.254.169.254',
      'http://10.0.0.1:9000',
      'http://100.64.0.1',
      'http://[fd00:ec2::254]',
      'http://[::ffff:169.254.169.254]',
    ]) {
      const answer = await h.call('POST', 'create', p.auth, {
        ...h.destination('outbound'),
        s3_endpoint: endpoint,
        from_date: daysAgo(1),
      });
      expect([endpoint, answer.status, answer.body.error]).toEqual([
        endpoint,
        400,
        expect.stringMatching(
          /^s3_endpoint: \S+ is not a public address; an operator can allow its network with OUTBOUND_ALLOWED_NETWORKS$/,
        ),
      ]);
    }
    expect((await h.call('GET', 'jobs', p.auth, { project_id: String(p.id) })).body).toEqual({ [p.id]: [] });

    // Stored while allowed (the name resolved elsewhere, or the allowlist was wider): checked again before each run.
    const fields = {
      type: 's3-raw',
      s3_bucket: BUCKET,
      s3_region: 'us-east-1',
      s3_endpoint: 'http://10.0.0.1:9000',
      s3_force_path_style: 'true',
      from_date: daysAgo(1),
      to_date: daysAgo(1),
    };
    const created = await h.app
      .get(PipelinesRepository)
      .insertAll(
        projectScope(p.id),
        parseCreatePipeline(fields, p.id, daysAgo(0)).definitions,
        undefined,
        h.clock.date(),
      );
    if (!('pipelines' in created)) throw new Error('not created');
    await h.runner.enqueueDue(created.pipelines[0]);
    const answer = await eventually(
      async () => {
        const s = await status(p.auth, created.pipelines[0].name);
        expect(s.last_error?.error).toBe(
          'destination: 10.0.0.1 is not a public address; an operator can allow its network with OUTBOUND_ALLOWED_NETWORKS',
        );
        return s;
      },
      { timeoutMs: 30_000 },
    );
    expect(answer.windows).toEqual({ done: 0, waiting: 1 });
  });

  it('shows a failing destination in status and keeps the window for a later run', async () => {
    const p = await h.project('failing');
    const name = (
      await h.call('POST', 'create', p.auth, {
        ...h.destination('exports/fail'),
        s3_access_key_id: 'NOBODY',
        from_date: daysAgo(1),
        to_date: daysAgo(1),
      })
    ).body.pipeline_names[0];
    const answer = await eventually(
      async () => {
        const s = await status(p.auth, name);
        expect(s.last_error?.error).toMatch(/Access Key Id you provided does not exist/);
        return s;
      },
      { timeoutMs: 30_000 },
    );
    expect(answer.windows).toEqual({ done: 0, waiting: 1 });
  });
});
