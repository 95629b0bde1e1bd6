import { Logger } from '@nestjs/common';
import { Kafka, Partitioners, Producer } from 'kafkajs';
import { CRC32C_IN_USE } from './kafkajs-crc32c';

// Imported for its effect before any producer exists: kafkajs checksums batches with our CRC32C.
if (CRC32C_IN_USE.startsWith('kafkajs'))
  new Logger('kafkajs').warn(`record batches are checksummed by kafkajs's own CRC32C: ${CRC32C_IN_USE}`);

/** Every send waits for all in-sync replicas. */
export const ACKS_ALL = -1;

/**
 * How the writers produce with kafkajs (dead letters, their replay): idempotent with one request in
 * flight, so a retried send never duplicates or reorders a partition's messages; the default (murmur2)
 * partitioner for keyed messages, as the Java clients partition. The gateway publishes with
 * `createPublishingClient` instead.
 */
export function createIdempotentProducer(kafka: Kafka): Producer {
  return kafka.producer({
    idempotent: true,
    maxInFlightRequests: 1,
    createPartitioner: Partitioners.DefaultPartitioner,
  });
}
