type Stop = () => Promise<void>;
const KEY = Symbol.for('analytics.test.teardown');
const holder = globalThis as { [KEY]?: Stop[] };

/** Global setup and teardown run in the same process; what one starts the other stops. */
export function registerTeardown(stop: Stop): void {
  (holder[KEY] ??= []).push(stop);
}

export async function runTeardowns(): Promise<void> {
  const stops = (holder[KEY] ?? []).splice(0).reverse();
  for (const stop of stops) await stop();
}
