import { Logger } from '@nestjs/common';
import { Kafka, Partitioners, Producer } from 'kafkajs';
import { CRC32C_IN_USE } from './kafkajs-crc32c';

// Imported for its effect before any producer exists: kafkajs checksums batches with our CRC32C.
if (CRC32C_IN_USE.startsWith('kafkajs')) new Logger('kafkajs').warn(`record batches are checksummed by kafkajs's own CRC32C: ${CRC32C_IN_USE}`);

export interface IdempotentProducerOptions {
  /**
   * Retry for about this long instead of kafkajs's long reconnect schedule: a gateway answers 503 at its
   * own deadline rather than hold a request on a dead broker, and kafkajs retries (a new leader, a broker
   * back) within that deadline (a client retry after a lost acknowledgement is deduplicated downstream).
   */
  retryForMs?: number;
}

const RETRY = { initialRetryTime: 200, maxRetryTime: 3_000 };

/** kafkajs's backoff doubles from initialRetryTime up to maxRetryTime: the retries whose waits add up to `ms`. */
function retriesWithin(ms: number): number {
  let retries = 0;
  for (let waited = 0; waited < ms; retries++) waited += Math.min(RETRY.maxRetryTime, RETRY.initialRetryTime * 2 ** retries);
  return Math.max(retries, 1);
}

/** Every send waits for all in-sync replicas. */
export const ACKS_ALL = -1;

/**
 * The one way this platform produces: idempotent with one request in flight, so a retried send
 * never duplicates or reorders a partition's messages; the default (murmur2) partitioner for keyed
 * messages, as the Java clients partition.
 */
export function createIdempotentProducer(kafka: Kafka, { retryForMs }: IdempotentProducerOptions = {}): Producer {
  return kafka.producer({
    idempotent: true,
    maxInFlightRequests: 1,
    createPartitioner: Partitioners.DefaultPartitioner,
    ...(retryForMs ? { retry: { ...RETRY, retries: retriesWithin(retryForMs) } } : {}),
  });
}
