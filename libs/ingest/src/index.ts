export { EventDictionaryProvider } from './event-dictionary.provider';
export { EventSink, RefusedEvent } from './event-sink';
export { EventIntakeModule, IngestModule } from './ingest.module';
export { KafkaEventSink } from './kafka-event-sink';
export { FailedRecord, IngestOutcome, IngestService } from './ingest.service';
