'use strict';
// What the upgrade fixture holds, seeded over HTTP into a release's standalone (scripts/upgrade-fixture.js).
// Everything is deterministic: the same seed gives the same events, ids and answers on every build.

/** Credentials the fixture's data directory is created with (BOOTSTRAP_*), so the test can sign in. */
const CREDENTIALS = {
  projectToken: 'upgrade-fixture-token-01',
  projectSecret: 'upgrade-fixture-project-secret-01',
  ownerUsername: 'owner.upgrade-fixture.service-account',
  ownerSecret: 'upgrade-fixture-owner-secret-0001',
};

const FROM_DATE = '2026-11-20';
const DAYS = 7;
const USERS = Array.from({ length: 16 }, (_, i) => `u-${String(i + 1).padStart(2, '0')}`);
// A UUID v4 device merged into u-01 by $identify, and an alias merged into u-02 by $create_alias
// (the project runs identity_merge=original, the mode of every project that predates the setting).
const ANONYMOUS = '3f6c2a9e-8b1d-4e57-9c0a-5d2e7b4f1a63';
const ALIAS = 'u02@example.com';

const day = (d) => new Date(Date.parse(`${FROM_DATE}T00:00:00Z`) + d * 86_400_000).toISOString().slice(0, 10);
const at = (d, minute) => Math.floor(Date.parse(`${day(d)}T10:00:00Z`) / 1000) + minute * 60;

function seedEvents() {
  const events = [];
  const add = (event, d, minute, properties) =>
    events.push({ event, properties: { time: at(d, minute), $insert_id: `fx-${events.length}`, ...properties } });
  USERS.forEach((user, i) => add('Signed up', 0, i, { distinct_id: user, plan: i % 3 ? 'free' : 'pro' }));
  for (let d = 0; d < DAYS; d++) {
    USERS.forEach((user, i) => {
      for (let v = 0; v < ((i + d) % 3) + 1; v++)
        add('Viewed page', d, 30 + i + v, { distinct_id: user, page: `/p${v}` });
      if ((i + d) % 4 === 0) add('Purchased', d, 60 + i, { distinct_id: user, amount: 10 * (i + 1) + d });
    });
  }
  for (let v = 0; v < 4; v++) add('Viewed page', 1, 5 + v, { distinct_id: ANONYMOUS, page: '/pricing' });
  add('$identify', 1, 20, { distinct_id: USERS[0], $anon_distinct_id: ANONYMOUS, $identified_id: USERS[0] });
  add('$create_alias', 2, 1, { distinct_id: USERS[1], alias: ALIAS });
  for (let v = 0; v < 3; v++) add('Viewed page', 2, 10 + v, { distinct_id: ALIAS, page: '/docs', debug_blob: 'x' });
  return events;
}

const profileOf = (user, i) => ({ $name: `User ${i + 1}`, plan: i % 3 ? 'free' : 'pro', visits: i + 1 });

const SAVED_REPORT = {
  name: 'Views and purchases',
  params: {
    events: [
      { event: 'Viewed page', math: 'total' },
      { event: 'Purchased', math: 'sum', property: 'amount' },
    ],
    from_date: FROM_DATE,
    to_date: day(DAYS - 1),
    unit: 'day',
  },
};
const ANNOTATION = { date: `${day(3)} 12:00:00`, description: 'Pricing page launched' };
const PURCHASED_SCHEMA = {
  description: 'A completed order',
  properties: { amount: { type: 'number', description: 'Order total' } },
  metadata: { 'com.mixpanel': { displayName: 'Purchase' } },
};
// `debug_blob` is dropped at ingestion: the upgraded code must keep applying the dictionary's rules.
const VIEWED_SCHEMA = {
  properties: {
    page: { type: 'string' },
    debug_blob: { type: 'string', metadata: { 'com.mixpanel': { dropped: true } } },
  },
};

const PIPELINE = {
  type: 's3-raw',
  s3_bucket: 'fixture-bucket',
  s3_region: 'us-east-1',
  s3_endpoint: 'http://127.0.0.1:9',
  s3_force_path_style: 'true',
  s3_access_key_id: 'FIXTUREKEY',
  s3_secret_access_key: 'fixture-secret-key',
  from_date: FROM_DATE,
  to_date: day(DAYS - 1),
  sync: 'false',
};

/** An HTTP client of one running standalone: JSON in, JSON (or text) out, non-2xx answers are errors. */
function client(base) {
  const basic = (user, password = '') => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  const call = async (method, path, { auth, body, form, text } = {}) => {
    const headers = { ...(auth ? { authorization: auth } : {}) };
    let payload;
    if (form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      payload = new URLSearchParams(form).toString();
    } else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const response = await fetch(`${base}${path}`, { method, headers, body: payload });
    const raw = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${raw.slice(0, 500)}`);
    return text ? raw : JSON.parse(raw);
  };
  const secret = basic(CREDENTIALS.projectSecret);
  const owner = basic(CREDENTIALS.ownerUsername, CREDENTIALS.ownerSecret);
  return { call, secret, owner };
}

async function poll(what, read, done, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const countBy = (events) =>
  events.reduce((counts, { event }) => ({ ...counts, [event]: (counts[event] ?? 0) + 1 }), {});

/** Seeds a fresh standalone at `base`; returns what the upgrade test checks (the fixture's JSON). */
async function seed(base) {
  const { call, secret, owner } = client(base);
  const me = await call('GET', '/api/app/me', { auth: owner });
  const organizationId = me.results?.organization?.id ?? me.results?.organization_id ?? me.organization?.id;
  const projectId = 1;
  const app = `/api/app/projects/${projectId}`;
  await call('PATCH', app, { auth: secret, body: { identity_merge: 'original' } });

  const tag = await call('POST', `${app}/annotations/tags`, { auth: secret, body: { name: 'launch' } });
  const annotation = await call('POST', `${app}/annotations`, { auth: owner, body: { ...ANNOTATION, tags: [tag.id] } });
  await call('POST', `${app}/schemas/event/Purchased`, { auth: secret, body: PURCHASED_SCHEMA });
  await call('POST', `${app}/schemas/event/Viewed%20page`, { auth: secret, body: VIEWED_SCHEMA });
  const report = await call('POST', `${app}/bookmarks`, { auth: secret, body: SAVED_REPORT });

  const events = seedEvents();
  for (let i = 0; i < events.length; i += 100) {
    await call('POST', '/import?strict=1', { auth: secret, body: events.slice(i, i + 100) });
  }
  const updates = USERS.map((user, i) => ({
    $token: CREDENTIALS.projectToken,
    $distinct_id: user,
    $set: profileOf(user, i),
  }));
  await call('POST', '/engage?verbose=1', { form: { data: JSON.stringify(updates) } });

  const range = `from_date=${FROM_DATE}&to_date=${day(DAYS - 1)}`;
  const uniqueViewers = () =>
    call('GET', `/api/query/segmentation?event=Viewed%20page&type=unique&unit=month&${range}`, { auth: secret });
  const people = USERS.length; // the anonymous device and the alias each count as their user
  await poll('merged viewers', uniqueViewers, (answer) => sumValues(answer) === people);
  await poll(
    'profiles',
    () => call('POST', '/api/query/engage', { auth: secret, form: {} }),
    (a) => a.total === USERS.length,
  );
  const insights = await call('GET', `/api/query/insights?bookmark_id=${report.results.id}`, { auth: secret });

  // A paused pipeline: its record (destination, sealed key, state) must survive; nothing listens at its endpoint.
  const pipelines = '/api/2.0/nessie/pipeline';
  const created = await call('POST', `${pipelines}/create`, { auth: secret, form: { ...PIPELINE, project_id: '1' } });
  const pipelineName = created.pipeline_names[0];
  await call('POST', `${pipelines}/pause`, { auth: secret, form: { name: pipelineName, project_id: '1' } });
  const jobs = await call('GET', `${pipelines}/jobs?project_id=1`, { auth: secret });
  const pipeline = jobs['1'].find((job) => job.name === pipelineName);

  const token = await call('POST', `/api/app/organizations/${organizationId}/oauth-tokens`, { auth: owner, body: {} });
  const bearer = `Bearer ${token.results?.token ?? token.token}`;
  const retrieval = await call('POST', `/api/app/data-retrievals/v3.0?token=${CREDENTIALS.projectToken}`, {
    auth: bearer,
    body: { distinct_ids: [USERS[2]] },
  });
  const trackingId = retrieval.results?.task_id ?? retrieval.results?.tracking_id ?? retrieval.task_id;
  const status = (id) =>
    call('GET', `/api/app/data-retrievals/v3.0/${id}?token=${CREDENTIALS.projectToken}`, { auth: bearer });
  const done = await poll(
    'retrieval',
    () => status(trackingId),
    (a) => /SUCCESS|FAILURE/.test(JSON.stringify(a)),
  );
  if (!JSON.stringify(done).includes('SUCCESS')) throw new Error(`retrieval failed: ${JSON.stringify(done)}`);

  return {
    credentials: { ...CREDENTIALS, organizationId, projectId },
    range: { from_date: FROM_DATE, to_date: day(DAYS - 1) },
    events: { total: events.length, byName: countBy(events), ofRetrieved: events.filter(isOf(USERS[2])).length },
    identity: { mode: 'original', people, merged: { [ANONYMOUS]: USERS[0], [ALIAS]: USERS[1] } },
    droppedProperty: { event: 'Viewed page', property: 'debug_blob' },
    profiles: Object.fromEntries(USERS.map((user, i) => [user, profileOf(user, i)])),
    savedReport: { id: report.results.id, ...SAVED_REPORT, series: insights.series },
    annotation: annotation.results,
    schemas: [
      { entityType: 'event', name: 'Purchased', schemaJson: PURCHASED_SCHEMA },
      { entityType: 'event', name: 'Viewed page', schemaJson: VIEWED_SCHEMA },
    ],
    retrieval: { trackingId, distinctId: USERS[2] },
    pipeline: {
      name: pipeline.name,
      type: pipeline.type,
      state: pipeline.state,
      from_date: pipeline.from_date,
      to_date: pipeline.to_date,
      destination: pipeline.destination,
    },
  };
}

const isOf = (user) => (event) => event.properties.distinct_id === user;
const sumValues = (answer) =>
  Object.values(answer.data?.values ?? {}).reduce(
    (sum, byDate) => sum + Object.values(byDate).reduce((a, b) => a + Number(b), 0),
    0,
  );

module.exports = { CREDENTIALS, seed };
