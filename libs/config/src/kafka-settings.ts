import { readFileSync } from 'node:fs';
import { KafkaCompression, KafkaSaslMechanism } from './constants';
import { Environment } from './environment';

export interface KafkaSettings {
  brokers: string[];
  clientId: string;
  topicPrefix: string;
  eventsPartitions: number;
  profilesPartitions: number;
  replicationFactor: number;
  /** How the gateway's producer compresses its batches (the writers read every codec). */
  compression: KafkaCompression;
  /** Absent: the brokers ask no authentication. */
  sasl?: { mechanism: KafkaSaslMechanism; username: string; password: string };
  /** TLS to the brokers; `ca` is the PEM text of KAFKA_SSL_CA_FILE (absent: the system's CAs). */
  ssl?: { ca?: string };
}

const SASL = ['KAFKA_SASL_MECHANISM', 'KAFKA_SASL_USERNAME', 'KAFKA_SASL_PASSWORD'] as const;

/**
 * What is wrong with the Kafka settings taken together, after each was validated alone: half of the
 * SASL settings (a mechanism without credentials would connect unauthenticated and fail far from its
 * cause), an unreadable CA file.
 */
export function kafkaProblems(env: Environment): string[] {
  const problems: string[] = [];
  const missing = SASL.filter((name) => env[name] === undefined);
  if (missing.length && missing.length < SASL.length)
    problems.push(`${SASL.join(', ')} go together: set all three or none (missing ${missing.join(', ')})`);
  if (env.KAFKA_SSL_CA_FILE !== undefined) {
    if (!env.KAFKA_SSL) problems.push('KAFKA_SSL_CA_FILE needs KAFKA_SSL=true');
    try {
      readFileSync(env.KAFKA_SSL_CA_FILE, 'utf8');
    } catch (error) {
      problems.push(`KAFKA_SSL_CA_FILE cannot be read: ${(error as Error).message}`);
    }
  }
  return problems;
}

/** Absent means no broker: the gateways hand batches to the writer code in-process. */
export function kafkaSettings(env: Environment): KafkaSettings | undefined {
  if (!env.KAFKA_BROKERS?.length) return undefined;
  const { KAFKA_SASL_MECHANISM: mechanism, KAFKA_SASL_USERNAME: username, KAFKA_SASL_PASSWORD: password } = env;
  return {
    brokers: env.KAFKA_BROKERS,
    clientId: env.KAFKA_CLIENT_ID ?? 'analytics',
    topicPrefix: env.KAFKA_TOPIC_PREFIX ?? '',
    eventsPartitions: env.KAFKA_EVENTS_PARTITIONS ?? 12,
    profilesPartitions: env.KAFKA_PROFILES_PARTITIONS ?? 12,
    replicationFactor: env.KAFKA_REPLICATION_FACTOR ?? 1,
    compression: (env.KAFKA_COMPRESSION as KafkaCompression | undefined) ?? 'none',
    sasl:
      mechanism && username && password
        ? { mechanism: mechanism as KafkaSaslMechanism, username, password }
        : undefined,
    ssl: env.KAFKA_SSL
      ? { ca: env.KAFKA_SSL_CA_FILE === undefined ? undefined : readFileSync(env.KAFKA_SSL_CA_FILE, 'utf8') }
      : undefined,
  };
}
