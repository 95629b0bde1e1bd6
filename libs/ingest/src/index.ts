export { EventDictionaryProvider } from './event-dictionary.provider';
export { EventIntakeModule, IngestModule } from './ingest.module';
export { KafkaEventSink } from './kafka-event-sink';
export { IngestService } from './ingest.service';
