import { KafkaSettings } from '@analytics/config';
import type { SASLMechanismValue, Serializer } from '@platformatic/kafka';
import type { PartitionedMessage } from './publish-parts';

/**
 * Loaded on first use, by the services that publish (the gateway, and the writer's warehouse imports):
 * its API tables take about 11 MB of live heap, which every other service would otherwise carry
 * (docs/benchmarks/2026-11-28-gateway-on-platformatic-kafka.md).
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (see above)
export const platformaticKafka = () => require('@platformatic/kafka') as typeof import('@platformatic/kafka');

/**
 * What every @platformatic/kafka client of the app connects with: the brokers, and the authentication
 * and TLS of KAFKA_SASL_* and KAFKA_SSL (the same settings kafkajs gets in createKafka).
 */
export function platformaticConnection(settings: KafkaSettings) {
  const { sasl, ssl } = settings;
  return {
    clientId: settings.clientId,
    bootstrapBrokers: settings.brokers,
    ...(sasl && {
      sasl: {
        mechanism: sasl.mechanism.toUpperCase() as SASLMechanismValue,
        username: sasl.username,
        password: sasl.password,
      },
    }),
    ...(ssl && { tls: ssl.ca ? { ca: ssl.ca } : {} }),
  };
}

/** One idempotent producer (acks=all, one request in flight per broker), as PartitionPublisher sends with it. */
export interface PublishingProducer {
  /** Resolves once the cluster answers and the producer has its id. */
  connect(): Promise<void>;
  /** Resolves once every message is acknowledged; rejects once the bounded retries are spent. */
  send(messages: PartitionedMessage[]): Promise<void>;
  disconnect(): Promise<void>;
}

export interface PublishingProducerOptions {
  /** How long one produce request waits for the replicas' acknowledgement before it counts as failed. */
  requestTimeoutMs: number;
  /** Retry a failed request (a leader that moved, a broker back) for about this long, then fail the send. */
  retryForMs: number;
  /** How long `connect` keeps trying a cluster that is still starting (a coordinator loading, a leader being elected). */
  connectForMs: number;
}

/** What PartitionPublisher needs of a Kafka client: producers for one topic, and the topic's partition count. */
export interface PublishingClient {
  producer(topic: string, options: PublishingProducerOptions): PublishingProducer;
  partitionCount(topic: string): Promise<number>;
}

const RETRY = { firstDelayMs: 200, maxDelayMs: 3_000 };
const retryDelayMs = (retry: number) => Math.min(RETRY.maxDelayMs, RETRY.firstDelayMs * 2 ** (retry - 1));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The retries whose waits add up to `ms`. At least two: @platformatic/kafka retries an idempotent
 * producer's sends without end when told fewer, and a broker that stays down must fail the send.
 */
export function retriesWithin(ms: number): number {
  let retries = 0;
  for (let waited = 0; waited < ms;) waited += retryDelayMs(++retries);
  return Math.max(retries, 2);
}

type Bytes = string | Buffer;
const asBuffer: Serializer<Bytes> = (data) => (data === undefined || Buffer.isBuffer(data) ? data : Buffer.from(data));
const serializers = { key: asBuffer, value: asBuffer, headerKey: asBuffer, headerValue: asBuffer };

/** The client nests its errors (a retry, a broker, a partition each): the distinct innermost ones say what went wrong. */
function innermostMessages(error: unknown): string[] {
  const { errors, cause } = (error ?? {}) as { errors?: unknown; cause?: unknown };
  if (Array.isArray(errors) && errors.length) return errors.flatMap(innermostMessages);
  if (cause) return innermostMessages(cause);
  return [error instanceof Error ? error.message : String(error)];
}

/** The same error, its message the innermost causes' ("Producing messages failed." alone tells a client nothing). */
export function explainedError(error: unknown): Error {
  return new Error([...new Set(innermostMessages(error))].join('; '), { cause: error });
}

/** A broker's answer arrives within the produce timeout; the connection gives it this much more before it gives up on the broker. */
const ANSWER_MARGIN_MS = 1_000;

/**
 * The gateway's producers on @platformatic/kafka: it encodes a record batch in place and checksums it
 * natively (the gateway 0.5–0.8 µs per event cheaper than on kafkajs,
 * docs/benchmarks/2026-11-28-gateway-on-platformatic-kafka.md), and it is maintained. Every
 * retry is bounded, so a send always settles and the publisher's pending bytes are always given back.
 */
export function createPublishingClient(settings: KafkaSettings): PublishingClient {
  const { Admin, ProduceAcks, Producer } = platformaticKafka();
  const base = platformaticConnection(settings);
  return {
    producer(topic, { requestTimeoutMs, retryForMs, connectForMs }) {
      const producer = new Producer<Bytes, Bytes, Bytes, Bytes>({
        ...base,
        idempotent: true,
        acks: ProduceAcks.ALL,
        compression: settings.compression,
        serializers,
        timeout: requestTimeoutMs,
        requestTimeout: requestTimeoutMs + ANSWER_MARGIN_MS,
        connectTimeout: Math.min(5_000, requestTimeoutMs),
        retries: retriesWithin(retryForMs),
        retryDelay: (_client, _operation, retry) => retryDelayMs(retry),
      });
      return {
        async connect() {
          for (let retry = 1, waited = 0; ; retry++) {
            try {
              await producer.metadata({ topics: [topic] });
              await producer.initIdempotentProducer({});
              return;
            } catch (error) {
              if (waited >= connectForMs) throw explainedError(error);
            }
            const delay = retryDelayMs(retry);
            await sleep(delay);
            waited += delay;
          }
        },
        async send(messages) {
          try {
            await producer.send({
              messages: messages.map(({ partition, key, value, headers }) => ({
                topic,
                partition,
                key,
                value,
                headers,
              })),
            });
          } catch (error) {
            throw explainedError(error);
          }
        },
        disconnect: () => producer.close(),
      };
    },
    async partitionCount(topic) {
      const admin = new Admin({ ...base, retries: 2 });
      try {
        const metadata = await admin.metadata({ topics: [topic] });
        return metadata.topics.get(topic)?.partitionsCount ?? 1;
      } finally {
        await admin.close();
      }
    },
  };
}
