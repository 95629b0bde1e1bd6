import { Producer } from '@platformatic/kafka';

export interface KafkaSendGate {
  /** From now on sends wait, unanswered, as if the broker had stopped answering. */
  close(): void;
  /** Sends go through again, the held ones first. */
  open(): void;
  /** The gateway's producers send directly again. */
  restore(): void;
}

type Send = (this: Producer, ...args: unknown[]) => Promise<unknown>;

/**
 * Puts a gate in front of the sends of the gateway's producers (@platformatic/kafka's, every one, from
 * now until `restore`): a closed gate holds sends without an answer, which is what a hung broker or a
 * network partition looks like to a producer, and a real broker cannot be made to do on demand. Only
 * the promise form of `send` is gated, the one the gateway uses.
 */
export function installKafkaSendGate(): KafkaSendGate {
  const original = Producer.prototype.send as unknown as Send;
  let closed = false;
  const held: (() => void)[] = [];
  const gated: Send = function (this: Producer, ...args) {
    if (!closed) return original.apply(this, args);
    return new Promise((resolve, reject) => held.push(() => void original.apply(this, args).then(resolve, reject)));
  };
  Producer.prototype.send = gated as unknown as Producer['send'];
  return {
    close: () => void (closed = true),
    open: () => {
      closed = false;
      held.splice(0).forEach((release) => release());
    },
    restore: () => void (Producer.prototype.send = original as unknown as Producer['send']),
  };
}
