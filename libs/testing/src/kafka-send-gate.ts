import { Kafka, Producer, ProducerRecord, RecordMetadata } from 'kafkajs';

export interface KafkaSendGate {
  /** From now on sends wait, unanswered, as if the broker had stopped answering. */
  close(): void;
  /** Sends go through again, the held ones first. */
  open(): void;
  /** Producers created afterwards are kafkajs's own again. */
  restore(): void;
}

/**
 * Puts a gate in front of the sends of every kafkajs producer created while it is installed (install it
 * before the app under test starts): a closed gate holds sends without an answer, which is what a hung
 * broker or a network partition looks like to a producer, and a real broker cannot be made to do on demand.
 */
export function installKafkaSendGate(): KafkaSendGate {
  const original = Object.getOwnPropertyDescriptor(Kafka.prototype, 'producer')!;
  let closed = false;
  const held: (() => void)[] = [];
  Object.defineProperty(Kafka.prototype, 'producer', {
    ...original,
    value(this: Kafka, ...args: Parameters<Kafka['producer']>): Producer {
      const producer = (original.value as Kafka['producer']).apply(this, args);
      const send = (record: ProducerRecord): Promise<RecordMetadata[]> =>
        closed ? new Promise((resolve, reject) => held.push(() => producer.send(record).then(resolve, reject))) : producer.send(record);
      return { ...producer, send };
    },
  });
  return {
    close: () => void (closed = true),
    open: () => {
      closed = false;
      held.splice(0).forEach((release) => release());
    },
    restore: () => Object.defineProperty(Kafka.prototype, 'producer', original),
  };
}
