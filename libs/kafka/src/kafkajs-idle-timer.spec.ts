import { createRequire } from 'node:module';
import { IDLE_TIMER_FIXED, KAFKAJS_REQUEST_QUEUE_MODULE } from './kafkajs-idle-timer';

// Node's own loader, where the services load kafkajs (jest's registry keeps copies of its own).
const RequestQueue = createRequire(__filename)(KAFKAJS_REQUEST_QUEUE_MODULE);

interface Queue {
  pending: unknown[];
  throttledUntil: number;
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  checkPendingRequests(): void;
  scheduleCheckPendingRequests(): void;
}

describe("kafkajs's request queue at rest", () => {
  const queue = (): Queue =>
    new RequestQueue({
      maxInFlightRequests: 1,
      requestTimeout: 30_000,
      clientId: 'test',
      broker: 'b',
      logger: { debug: () => undefined },
    });

  it('arms no timer when no request waits, and still checks again while one waits on a throttle', () => {
    expect(IDLE_TIMER_FIXED).toBe(true);
    const idle = queue();
    idle.checkPendingRequests();
    expect(idle.throttleCheckTimeoutId).toBeNull();

    const throttled = queue();
    throttled.throttledUntil = Date.now() + 60_000;
    throttled.pending.push({});
    throttled.scheduleCheckPendingRequests();
    expect(throttled.throttleCheckTimeoutId).not.toBeNull();
    clearTimeout(throttled.throttleCheckTimeoutId!);
  });
});
