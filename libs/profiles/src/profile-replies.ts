import { IngestError, Reply, sdkFailure, SdkReplyOptions, sdkReply } from '@analytics/sdk-transport';
import { ProfileIngestOutcome } from './profile-ingest.service';

export interface ProfileReplyOptions extends SdkReplyOptions {
  /** strict=1 answers in JSON, with the failed records. */
  strict: boolean;
}

/** The first failure's reason; the others are counted (strict answers list them all). */
function summary({ failed }: ProfileIngestOutcome): string {
  const more = failed.length > 1 ? ` (and ${failed.length - 1} more failed records)` : '';
  return `${failed[0].message}${more}`;
}

/**
 * The SDK transport's answers (`1`/`0`, or verbose `{"error","status"}`, HTTP 200). With strict=1
 * the answer is always JSON, and a failure lists each failed record:
 * `{"error": "...", "status": 0, "failed_records": [{"index", "$distinct_id", "message"}]}`
 * (`$group_key` and `$group_id` for groups). The valid records of the request are applied either way.
 */
export function profileReply(outcome: ProfileIngestOutcome, options: ProfileReplyOptions): Reply {
  if (!outcome.failed.length) return sdkReply({ ok: true }, { ...options, verbose: options.verbose || options.strict });
  if (!options.strict) return sdkReply({ ok: false, error: summary(outcome) }, options);
  const body = { error: summary(outcome), status: 0, failed_records: outcome.failed };
  return { status: 200, body: JSON.stringify(body), contentType: 'application/json' };
}

/** A whole request refused (no data, too many records, rate limit, storage down). */
export function profileFailureReply(error: IngestError, options: ProfileReplyOptions): Reply {
  return sdkReply(sdkFailure(error), { ...options, verbose: options.verbose || options.strict });
}
