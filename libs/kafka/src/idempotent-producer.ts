import { Kafka, Partitioners, Producer } from 'kafkajs';

export interface IdempotentProducerOptions {
  /**
   * Give up after about 10 s instead of kafkajs's long reconnect schedule: a gateway answers 503
   * within seconds rather than holding a request on a dead broker (a client retry after a lost
   * acknowledgement is deduplicated downstream).
   */
  bounded?: boolean;
}

/** Every send waits for all in-sync replicas. */
export const ACKS_ALL = -1;

/**
 * The one way this platform produces: idempotent with one request in flight, so a retried send
 * never duplicates or reorders a partition's messages; the default (murmur2) partitioner for keyed
 * messages, as the Java clients partition.
 */
export function createIdempotentProducer(kafka: Kafka, { bounded = false }: IdempotentProducerOptions = {}): Producer {
  return kafka.producer({
    idempotent: true,
    maxInFlightRequests: 1,
    createPartitioner: Partitioners.DefaultPartitioner,
    ...(bounded ? { retry: { retries: 5, initialRetryTime: 200, maxRetryTime: 3_000 } } : {}),
  });
}
