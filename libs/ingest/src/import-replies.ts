import {
  IngestError,
  jsonReply as json,
  Reply,
  retryAfterHeader as retryAfter,
  STATUS_TEXT,
} from '@analytics/sdk-transport';
import { IngestOutcome } from './ingest-contract';

/** The strict /import answers, in the spec's error shape. */
export const importReplies = {
  outcome({ imported, failed }: IngestOutcome): Reply {
    if (!failed.length) return json(200, { code: 200, num_records_imported: imported, status: 'OK' });
    return json(400, {
      code: 400,
      error: 'some data points in the request failed validation',
      failed_records: failed,
      num_records_imported: imported,
      status: STATUS_TEXT[400],
    });
  },
  error(error: IngestError): Reply {
    return json(
      error.status,
      { code: error.status, error: error.message, num_records_imported: 0, status: STATUS_TEXT[error.status] },
      retryAfter(error),
    );
  },
};

export function sdkOutcome(result: IngestOutcome): { ok: true } | { ok: false; error: string } {
  if (!result.failed.length) return { ok: true };
  const [first] = result.failed;
  const more = result.failed.length > 1 ? ` (and ${result.failed.length - 1} more)` : '';
  return { ok: false, error: `event ${first.index}: ${first.message}${more}` };
}
