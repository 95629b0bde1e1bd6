import { KafkaSettings } from '@analytics/config';
import { Logger } from '@nestjs/common';
import { Kafka, logLevel, LogEntry, SASLOptions } from 'kafkajs';
import { IDLE_TIMER_FIXED } from './kafkajs-idle-timer';
// Imported for its effect: kafkajs reads the batches the gateway compresses with snappy, lz4 or zstd.
import './kafkajs-codecs';

// Imported for its effect: kafkajs's connections no longer wake every millisecond at rest.
if (!IDLE_TIMER_FIXED)
  new Logger('kafkajs').warn("kafkajs's request queue was not found: its connections keep a 1 ms timer at rest");

const logger = new Logger('kafkajs');

/** kafkajs logs through our logger, at warn and above: its info lines are per-connection chatter. */
function logCreator() {
  return ({ level, log }: LogEntry) => {
    const { message, ...extra } = log;
    const text = `${message} ${JSON.stringify(extra)}`;
    if (level === logLevel.ERROR) logger.error(text);
    else if (level === logLevel.WARN) logger.warn(text);
  };
}

/** Every kafkajs client of the app (the writers' consumers, dead letters, the admin), authenticated as KAFKA_SASL_* says. */
export function createKafka(settings: KafkaSettings): Kafka {
  const { sasl, ssl } = settings;
  return new Kafka({
    clientId: settings.clientId,
    brokers: settings.brokers,
    // kafkajs names the mechanisms as KAFKA_SASL_MECHANISM does.
    ...(sasl && { sasl: { ...sasl } as SASLOptions }),
    ...(ssl && { ssl: ssl.ca ? { ca: [ssl.ca] } : true }),
    logLevel: logLevel.WARN,
    logCreator,
    retry: { initialRetryTime: 100, retries: 8 },
  });
}
