import { createRequire } from 'node:module';

/**
 * kafkajs 2.2.4 re-arms a timer after every check of a connection's pending requests, even when
 * none is pending: each connection then wakes every millisecond forever (kafkajs#1704; Node 24
 * warns `TimeoutNegativeWarning` each time, kafkajs#1751). At rest that is 0.06–0.1 cores per
 * service (docs/benchmarks/2026-11-24-issue-21-gateway-and-broker.md). The check only matters while
 * requests wait (throttled by the broker, or beyond the in-flight limit); with none waiting there is
 * nothing to check. The method is looked up on the class at each call, so replacing it applies to
 * every connection, made before or after. A kafkajs without that class or method is left as it is.
 */

/** kafkajs's per-connection request queue. */
export const KAFKAJS_REQUEST_QUEUE_MODULE = 'kafkajs/src/network/requestQueue/index.js';

interface RequestQueue {
  pending: unknown[];
  scheduleCheckPendingRequests(): void;
}

export function stopIdleRequestQueueTimers(): boolean {
  let RequestQueue: { prototype: RequestQueue & { idleTimerFixed?: boolean } };
  try {
    RequestQueue = createRequire(__filename)(KAFKAJS_REQUEST_QUEUE_MODULE) as typeof RequestQueue;
  } catch {
    return false;
  }
  const proto = RequestQueue.prototype;
  if (proto.idleTimerFixed) return true;
  const schedule = proto.scheduleCheckPendingRequests;
  if (typeof schedule !== 'function') return false;
  proto.scheduleCheckPendingRequests = function (this: RequestQueue) {
    if (this.pending.length > 0) schedule.call(this);
  };
  proto.idleTimerFixed = true;
  return true;
}

export const IDLE_TIMER_FIXED = stopIdleRequestQueueTimers();
