/** What the ingest rules take from each transport (its options) and give back (the outcome per request). */

export interface FailedRecord {
  index: number;
  insert_id: string;
  field: string;
  message: string;
}

export interface IngestOutcome {
  imported: number;
  failed: FailedRecord[];
}

export interface ImportOptions {
  /** Strict mode reports every invalid event; otherwise invalid events are skipped silently. */
  strict: boolean;
  /** The legacy form transport (server SDKs) needs no $insert_id. */
  requireInsertId: boolean;
  /**
   * The records are a parse the caller drops: each slot is cleared once its event is validated, so
   * that a GC in the middle of a large request finds the events done with already garbage, rather
   * than copying them and promoting them to V8's old generation.
   */
  consumeRecords?: boolean;
  /** Receipt time, read by the caller from its clock; also the events' mp_processing_time_ms. */
  nowMs: number;
}

export interface TrackOptions {
  ip?: string;
  /** Receipt time, read by the caller from its clock. */
  nowMs: number;
}
