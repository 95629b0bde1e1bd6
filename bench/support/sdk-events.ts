/**
 * Events as the official web and mobile SDKs send them (mixpanel-js, mixpanel-swift, the Android
 * library), with their default properties, over many users and four weeks of sessions: the shape a
 * product's events table mostly holds, where the load generator's events (bench/support/event-bodies.ts)
 * are the shape of a server-side importer. Seeded, so every run stores the same events.
 */

/** mulberry32: small, fast, and the same sequence on every run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Random = () => number;
const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)];
const int = (random: Random, from: number, to: number) => from + Math.floor(random() * (to - from + 1));
const hex = (random: Random, length: number) =>
  Array.from({ length }, () => Math.floor(random() * 16).toString(16)).join('');
const base36 = (random: Random, length: number) =>
  Array.from({ length }, () => Math.floor(random() * 36).toString(36)).join('');
/** A version-4 UUID, as `crypto.randomUUID()` writes it. */
export const uuid = (random: Random) =>
  `${hex(random, 8)}-${hex(random, 4)}-4${hex(random, 3)}-${pick(random, ['8', '9', 'a', 'b'])}${hex(random, 3)}-${hex(random, 12)}`;

const DAY_MS = 86_400_000;
const SITE = 'https://www.example-shop.com';
const PATHS = [
  '/',
  '/pricing',
  '/blog/how-to-choose',
  '/products',
  '/products/p-1042',
  '/cart',
  '/checkout',
  '/account',
];
const REFERRERS = [
  ['$direct', '$direct'],
  ['https://www.google.com/', 'www.google.com'],
  ['https://www.bing.com/', 'www.bing.com'],
  ['https://t.co/', 't.co'],
  ['https://news.ycombinator.com/', 'news.ycombinator.com'],
] as const;
const CAMPAIGNS = [
  undefined,
  undefined,
  ['google', 'cpc', 'winter_sale'],
  ['newsletter', 'email', 'weekly_42'],
] as const;
const BROWSERS = [
  ['Chrome', 131, 'Windows', 1080, 1920],
  ['Chrome', 131, 'Mac OS X', 900, 1440],
  ['Safari', 18.1, 'Mac OS X', 982, 1512],
  ['Mobile Safari', 18.1, 'iOS', 844, 390],
  ['Chrome', 130, 'Android', 915, 412],
  ['Firefox', 133, 'Linux', 1080, 1920],
  ['Microsoft Edge', 131, 'Windows', 864, 1536],
] as const;
const IPHONES = [
  ['iPhone15,2', 852, 393],
  ['iPhone16,1', 852, 393],
  ['iPhone14,7', 844, 390],
] as const;
const ANDROIDS = [
  ['samsung', 'SM-S918B', 2340, 1080, 480],
  ['Google', 'Pixel 8', 2400, 1080, 420],
  ['Xiaomi', '23049PCD8G', 2400, 1080, 440],
] as const;
const CARRIERS = ['T-Mobile', 'Verizon', 'AT&T', 'Vodafone', 'Orange', ''];
const WEB_EVENTS = ['$mp_web_page_view', 'Page Viewed', 'Clicked Button', 'Searched', 'Added To Cart', 'Purchased'];
const APP_EVENTS = ['App Opened', 'Screen Viewed', 'Item Viewed', 'Searched', 'Added To Cart', 'Purchased'];

/** One person's device: the properties its SDK puts on every event, and who it is. */
interface Device {
  kind: 'web' | 'ios' | 'android';
  deviceId: string;
  /** The id the person is identified as, once they logged in (`identify`). */
  userId?: string;
  ip: string;
  defaults: Record<string, unknown>;
}

function newDevice(random: Random, person: number): Device {
  const roll = random();
  const kind = roll < 0.6 ? 'web' : roll < 0.85 ? 'ios' : 'android';
  const deviceId = kind === 'ios' ? uuid(random).toUpperCase() : uuid(random);
  const userId = random() < 0.45 ? (random() < 0.5 ? String(100_000 + person) : uuid(random)) : undefined;
  const ip = `${int(random, 1, 223)}.${int(random, 0, 255)}.${int(random, 0, 255)}.${int(random, 1, 254)}`;
  const appVersion = pick(random, ['3.12.0', '3.13.1', '3.14.0']);
  const device = (defaults: Record<string, unknown>): Device => ({ kind, deviceId, userId, ip, defaults });
  if (kind === 'web') {
    const [browser, version, os, height, width] = pick(random, BROWSERS);
    const [referrer, domain] = pick(random, REFERRERS);
    return device({
      $os: os,
      $browser: browser,
      $browser_version: version,
      $screen_height: height,
      $screen_width: width,
      ...(os === 'iOS' || os === 'Android' ? { $device: os === 'iOS' ? 'iPhone' : 'Android' } : {}),
      mp_lib: 'web',
      $lib_version: '2.82.1',
      $initial_referrer: referrer,
      $initial_referring_domain: domain,
    });
  }
  if (kind === 'ios') {
    const [model, height, width] = pick(random, IPHONES);
    return device({
      mp_lib: 'swift',
      $lib_version: '4.3.0',
      $os: 'iOS',
      $os_version: pick(random, ['17.5.1', '18.1', '18.1.1']),
      $manufacturer: 'Apple',
      $model: model,
      $screen_height: height,
      $screen_width: width,
      $app_version_string: appVersion,
      $app_build_number: appVersion.replaceAll('.', ''),
      $carrier: pick(random, CARRIERS),
      $had_persisted_distinct_id: false,
    });
  }
  const [manufacturer, model, height, width, dpi] = pick(random, ANDROIDS);
  return device({
    mp_lib: 'android',
    $lib_version: '8.0.3',
    $os: 'Android',
    $os_version: pick(random, ['13', '14', '15']),
    $manufacturer: manufacturer,
    $brand: manufacturer,
    $model: model,
    $screen_height: height,
    $screen_width: width,
    $screen_dpi: dpi,
    $app_version_string: appVersion,
    $app_build_number: Number(appVersion.replaceAll('.', '')),
    $app_release: Number(appVersion.replaceAll('.', '')),
    $carrier: pick(random, CARRIERS),
    $has_nfc: random() < 0.7,
    $has_telephone: true,
    $bluetooth_enabled: random() < 0.6,
    $bluetooth_version: 'ble',
    $google_play_services: 'available',
  });
}

/** What a screen, page or action carries beside the SDK's defaults. */
function customProperties(random: Random, event: string, step: number): Record<string, unknown> {
  switch (event) {
    case 'Clicked Button':
      return { button: pick(random, ['Sign up', 'Buy now', 'Learn more']), section: pick(random, ['hero', 'footer']) };
    case 'Searched':
      return { query: pick(random, ['shoes', 'running shoes', 'gift card', 'jacket']), results: int(random, 0, 120) };
    case 'Added To Cart':
    case 'Item Viewed':
      return { product_id: `p-${int(random, 1000, 1999)}`, price: int(random, 500, 19_999) / 100, category: 'apparel' };
    case 'Purchased':
      return {
        order_id: uuid(random),
        amount: int(random, 1_000, 49_999) / 100,
        currency: 'USD',
        items: int(random, 1, 5),
      };
    case 'Screen Viewed':
      return { screen: pick(random, ['Home', 'Search', 'Product', 'Cart', 'Profile']), step };
    default:
      return {};
  }
}

/** One event as its SDK sends it (the `ip` its request is received from beside it). */
export interface SdkEvent {
  event: { event: string; properties: Record<string, unknown> };
  ip: string;
  /** When the gateway receives it: the SDKs batch and flush (web every 5 s, mobile every minute). */
  receivedMs: number;
}

/**
 * `count` events in sessions of 1 to 15 events, over `people` people (a few come back often) and the
 * `days` before `endMs`. Web: mixpanel-js's properties, 16-character base-36 insert ids, float-second
 * times. iOS and Android: their libraries' device properties, hex or UUID insert ids, millisecond times.
 */
export function* sdkEvents(count: number, options: { people: number; days: number; endMs: number; seed: number }) {
  const random = seededRandom(options.seed);
  const devices = new Map<number, Device>();
  for (let made = 0; made < count;) {
    // Squaring skews visits to the people with low numbers: some are regulars, most come once or twice.
    const person = Math.floor(random() ** 2 * options.people);
    let device = devices.get(person);
    if (!device) devices.set(person, (device = newDevice(random, person)));
    const campaign = pick(random, CAMPAIGNS);
    const [referrer, domain] = pick(random, REFERRERS);
    let timeMs = options.endMs - Math.floor(random() * options.days * DAY_MS);
    const length = Math.min(int(random, 1, 15), count - made);
    for (let step = 0; step < length; step++, made++) {
      timeMs += int(random, 2_000, 90_000);
      const web = device.kind === 'web';
      const name =
        step === 0 ? (web ? '$mp_web_page_view' : 'App Opened') : pick(random, web ? WEB_EVENTS : APP_EVENTS);
      const identity = device.userId
        ? { distinct_id: device.userId, $user_id: device.userId }
        : { distinct_id: `$device:${device.deviceId}` };
      const page = pick(random, PATHS);
      const properties: Record<string, unknown> = {
        token: 'benchtoken0123456789abcdef',
        time: web ? timeMs / 1000 : timeMs,
        ...identity,
        $device_id: device.deviceId,
        $insert_id: web ? base36(random, 16) : device.kind === 'ios' ? hex(random, 32) : uuid(random),
        ...device.defaults,
        ...(web
          ? {
              $current_url: `${SITE}${page}`,
              $referrer: step === 0 ? referrer : `${SITE}${pick(random, PATHS)}`,
              $referring_domain: step === 0 ? domain : 'www.example-shop.com',
              ...(campaign ? { utm_source: campaign[0], utm_medium: campaign[1], utm_campaign: campaign[2] } : {}),
              mp_sent_by_lib_version: '2.82.1',
            }
          : { $wifi: random() < 0.6 }),
        ...(name === '$mp_web_page_view'
          ? { current_page_title: 'Example Shop', current_domain: 'www.example-shop.com', current_url_path: page }
          : {}),
        ...customProperties(random, name, step),
        plan: device.userId ? pick(random, ['free', 'pro', 'team']) : undefined,
      };
      if (properties.plan === undefined) delete properties.plan;
      const flushMs = web ? int(random, 50, 5_000) : int(random, 500, 60_000);
      yield { event: { event: name, properties }, ip: device.ip, receivedMs: timeMs + flushMs } satisfies SdkEvent;
    }
  }
}
