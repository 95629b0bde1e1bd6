import { KafkaSettings } from '@analytics/config';
import { Logger } from '@nestjs/common';
import { Kafka, logLevel, LogEntry } from 'kafkajs';
import { IDLE_TIMER_FIXED } from './kafkajs-idle-timer';

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

export function createKafka(settings: KafkaSettings): Kafka {
  return new Kafka({
    clientId: settings.clientId,
    brokers: settings.brokers,
    logLevel: logLevel.WARN,
    logCreator,
    retry: { initialRetryTime: 100, retries: 8 },
  });
}
