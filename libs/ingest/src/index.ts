export { EventDictionaryProvider } from './event-dictionary.provider';
export { EventSink, SinkUnavailableError } from './event-sink';
export { IngestModule } from './ingest.module';
export { FailedRecord, IngestOutcome, IngestService } from './ingest.service';
export { decodeDataField, parseEventsJson, readSdkRequest } from './ingest-payload';
export { readRequestBody } from './request-body';
