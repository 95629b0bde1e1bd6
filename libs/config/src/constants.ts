/** The deployable services; `SERVICES` picks among them for the standalone process. */
export const SERVICE_NAMES = ['ingest', 'writer', 'query', 'export', 'management', 'compliance'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The SASL mechanisms both Kafka clients speak (kafkajs and @platformatic/kafka), as KAFKA_SASL_MECHANISM names them. */
export const KAFKA_SASL_MECHANISMS = ['plain', 'scram-sha-256', 'scram-sha-512'] as const;
export type KafkaSaslMechanism = (typeof KAFKA_SASL_MECHANISMS)[number];

/** The codecs the gateway's producer may compress with (KAFKA_COMPRESSION): none needs a native add-on. */
export const KAFKA_COMPRESSIONS = ['none', 'gzip', 'snappy', 'lz4', 'zstd'] as const;
export type KafkaCompression = (typeof KAFKA_COMPRESSIONS)[number];
