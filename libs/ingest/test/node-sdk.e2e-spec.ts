import Mixpanel from 'mixpanel';
import { IngestHarness, startIngestHarness } from './ingest-harness';
import {
  ASTRAL_TEXT,
  asStored,
  copyForSdk,
  everyJsonType,
  installedVersion,
  SentEvent,
  sortedByEvent,
} from './sdk/sent-events';
import { waitForStoredEvents, whereProperty } from './sdk/stored-events';
import { startTlsFront, TlsFront, trustCertificate } from './sdk/tls-front';

const DAY_MS = 86_400_000;
const SDK_VERSION = installedVersion('mixpanel');

/** What the SDK handed its callback for a single call: nothing on success, an Error otherwise. */
const singleOutcome = (send: (callback: (error: Error | undefined) => void) => void) =>
  new Promise<Error | undefined>((resolve) => send(resolve));

/** What the SDK handed a batch callback: the errors (null or undefined when none) and one result per HTTP request. */
const batchOutcome = (send: (callback: (errors: unknown, results?: unknown[]) => void) => void) =>
  new Promise<{ errors: unknown[]; requests: number }>((resolve) =>
    send((errors, results) => resolve({ errors: (errors as unknown[] | null) ?? [], requests: results?.length ?? 0 })),
  );

/** Our properties: every JSON type, and emoji (this SDK sends real UTF-8). */
const ours = (n: number) => ({ ...everyJsonType(n), emoji: ASTRAL_TEXT });

/** The SDK logs through this instead of the console (it warns that secret auth is deprecated). */
const quietLogger = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };

describe('mixpanel-node (the official server SDK) against the gateway', () => {
  let h: IngestHarness;
  let front: TlsFront;
  let untrust: () => void = () => undefined;

  beforeAll(async () => {
    h = await startIngestHarness();
    front = await startTlsFront(h.app.baseUrl);
    untrust = trustCertificate(front.certificate);
  });
  afterAll(async () => {
    untrust();
    await front?.close();
    await h?.close();
  });

  describe.each([
    { mode: 'default', verbose: false },
    { mode: 'verbose', verbose: true },
  ])('answering the $mode way', ({ mode, verbose }) => {
    /** Client-side calls (token only) straight to the gateway over HTTP. */
    const trackingClient = () =>
      Mixpanel.init(h.project.token, {
        host: new URL(h.app.baseUrl).host,
        protocol: 'http',
        verbose,
        logger: quietLogger,
      });
    /** Server-side calls with the project secret, which the SDK sends only over HTTPS. */
    const importingClient = () =>
      Mixpanel.init(h.project.token, {
        host: front.host,
        protocol: 'https',
        secret: h.project.secret,
        verbose,
        logger: quietLogger,
      });

    it('track(): every event is stored with its name, distinct_id, time and typed properties, plus mp_lib and $lib_version', async () => {
      const testCase = `${mode}-track`;
      const mixpanel = trackingClient();
      const sent: SentEvent[] = [
        {
          event: 'Track with a Date',
          properties: { distinct_id: 'user-1', time: new Date(Date.now() - 3_600_000 + 123), ...ours(1) },
        },
        {
          event: 'Track with seconds',
          properties: { distinct_id: 'user-2', time: Math.floor(Date.now() / 1000) - 7200, ...ours(2) },
        },
        { event: 'Track with no time', properties: { distinct_id: 'user-3', $insert_id: `${mode}-t3`, ...ours(3) } },
      ].map((e) => ({ ...e, properties: { ...e.properties, test_case: testCase } }));

      const before = Date.now();
      for (const { event, properties } of sent) {
        expect(await singleOutcome((done) => mixpanel.track(event, copyForSdk(properties), done))).toBeUndefined();
      }
      const after = Date.now();

      const stored = await waitForStoredEvents(h, whereProperty('test_case', testCase), sent.length);
      const sdkAdds = { mp_lib: 'node', $lib_version: SDK_VERSION };
      expect(sortedByEvent(stored)).toEqual(
        sortedByEvent(sent.map((e) => asStored({ ...e, properties: { ...e.properties, ...sdkAdds } }))),
      );
      const untimed = stored.find((e) => e.event === 'Track with no time')!;
      expect(untimed.time_ms).toBeGreaterThanOrEqual(before - 1);
      expect(untimed.time_ms).toBeLessThanOrEqual(after + 1);
    });

    it('track_batch(): 130 events in two calls, split by the SDK into 50-event POSTs, all stored exactly as sent', async () => {
      const testCase = `${mode}-track-batch`;
      const mixpanel = trackingClient();
      const base = Date.now() - 2 * DAY_MS;
      const event = (i: number): SentEvent => ({
        event: `Batched ${String(i).padStart(3, '0')}`,
        properties: {
          distinct_id: `user-${i % 7}`,
          // The time forms the SDK passes through: a Date (sent as ms), ms and seconds as given, or none.
          ...[
            { time: new Date(base + i * 1000 + 7) },
            { time: base + i * 1000 + 9 },
            { time: Math.floor(base / 1000) + i },
            {},
          ][i % 4],
          ...(i % 3 === 0 ? { $insert_id: `${mode}-b${i}` } : {}),
          ...ours(i),
          test_case: testCase,
        },
      });
      const sent = Array.from({ length: 130 }, (_, i) => event(i));

      const first = await batchOutcome((done) => mixpanel.track_batch(copyForSdk(sent.slice(0, 120)), done));
      expect(first).toEqual({ errors: [], requests: 3 });
      const second = await batchOutcome((done) =>
        mixpanel.track_batch(copyForSdk(sent.slice(120)), { max_batch_size: 4 }, done),
      );
      expect(second).toEqual({ errors: [], requests: 3 });

      // Batches get no mp_lib / $lib_version from the SDK: what was sent is what is stored.
      const stored = await waitForStoredEvents(h, whereProperty('test_case', testCase), sent.length);
      expect(sortedByEvent(stored)).toEqual(sortedByEvent(sent.map((e) => asStored(e))));
    });

    it('import(): with the secret over HTTPS, events of any age are stored with their own time', async () => {
      const testCase = `${mode}-import`;
      const mixpanel = importingClient();
      const calls = [
        {
          event: 'Imported a month ago',
          time: new Date(Date.now() - 30 * DAY_MS + 456),
          properties: { distinct_id: 'user-1', ...ours(1) },
        },
        {
          event: 'Imported in seconds',
          time: Math.floor(Date.now() / 1000) - 400 * 86_400,
          properties: { distinct_id: 'user-2', ...ours(2) },
        },
        {
          event: 'Imported in ms',
          time: Date.now() - 10 * DAY_MS,
          properties: { distinct_id: 'user-3', $insert_id: `${mode}-i3`, ...ours(3) },
        },
      ].map((c) => ({ ...c, properties: { ...c.properties, test_case: testCase } }));

      for (const { event, time, properties } of calls) {
        expect(
          await singleOutcome((done) => mixpanel.import(event, time, copyForSdk(properties), done)),
        ).toBeUndefined();
      }

      const stored = await waitForStoredEvents(h, whereProperty('test_case', testCase), calls.length);
      const expected = calls.map(({ event, time, properties }) =>
        asStored({ event, properties: { ...properties, time, mp_lib: 'node', $lib_version: SDK_VERSION } }),
      );
      expect(sortedByEvent(stored)).toEqual(sortedByEvent(expected));
    });

    it('import_batch(): 101 old events with the secret over HTTPS, three 50-event POSTs, all stored exactly as sent', async () => {
      const testCase = `${mode}-import-batch`;
      const mixpanel = importingClient();
      const base = Date.now() - 90 * DAY_MS;
      const sent = Array.from({ length: 101 }, (_, i) => ({
        event: `Import batched ${String(i).padStart(3, '0')}`,
        properties: {
          distinct_id: `user-${i % 5}`,
          time: [new Date(base + i * 60_000 + 1), base + i * 60_000 + 2, Math.floor(base / 1000) + i * 60][i % 3],
          ...(i % 2 === 0 ? { $insert_id: `${mode}-ib${i}` } : {}),
          ...ours(i),
          test_case: testCase,
        },
      }));

      expect(await batchOutcome((done) => mixpanel.import_batch(copyForSdk(sent), done))).toEqual({
        errors: [],
        requests: 3,
      });

      const stored = await waitForStoredEvents(h, whereProperty('test_case', testCase), sent.length);
      expect(sortedByEvent(stored)).toEqual(sortedByEvent(sent.map((e) => asStored(e))));
    });
  });
});
