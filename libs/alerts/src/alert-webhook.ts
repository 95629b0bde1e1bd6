import { OutboundPolicy, OutboundRefused } from '@analytics/outbound';
import { createHmac } from 'node:crypto';

/** The header carrying `sha256=<hex HMAC-SHA256 of the raw body under the alert's signing secret>`. */
export const SIGNATURE_HEADER = 'X-Alert-Signature';

export interface DeliverySettings {
  /** Attempts per delivery, the first included. */
  maxAttempts: number;
  /** The wait before the second attempt; doubled before each further one. */
  backoffMs: number;
  /** How long one attempt may take, connection to last byte of the answer's head. */
  timeoutMs: number;
}

/** One attempt's outcome, as the history records it. */
export interface DeliveryAttempt {
  attempt: number;
  httpStatus?: number;
  error?: string;
}

export function signature(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

type Outcome = DeliveryAttempt & { refused?: boolean };

/** Worth another attempt: the receiver failed or was not reached; a 4xx is its answer and will not change. */
const retryable = (outcome: Outcome) =>
  outcome.httpStatus === undefined ? !outcome.refused : outcome.httpStatus >= 500 || outcome.httpStatus === 429;

/**
 * POSTs a signed JSON body to a webhook: the host is checked by the outbound policy before every
 * attempt (a name can resolve elsewhere later), redirects are not followed (they could lead past
 * the policy), and 5xx, 429, timeouts and network failures are retried with exponential backoff up
 * to `maxAttempts`. `record` sees every attempt as it ends.
 */
export async function deliverWebhook(
  url: string,
  secret: string,
  payload: object,
  outbound: OutboundPolicy,
  settings: DeliverySettings,
  record: (attempt: DeliveryAttempt) => Promise<void>,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
): Promise<DeliveryAttempt> {
  const body = JSON.stringify(payload);
  let outcome: Outcome = { attempt: 0 };
  for (let attempt = 1; attempt <= settings.maxAttempts; attempt++) {
    if (attempt > 1) await sleep(settings.backoffMs * 2 ** (attempt - 2));
    outcome = await attemptOnce(url, secret, body, outbound, settings.timeoutMs, attempt);
    await record({ attempt, httpStatus: outcome.httpStatus, error: outcome.error });
    if (outcome.httpStatus !== undefined && outcome.httpStatus < 300 && outcome.httpStatus >= 200) break;
    if (!retryable(outcome)) break;
  }
  return { attempt: outcome.attempt, httpStatus: outcome.httpStatus, error: outcome.error };
}

async function attemptOnce(
  url: string,
  secret: string,
  body: string,
  outbound: OutboundPolicy,
  timeoutMs: number,
  attempt: number,
): Promise<Outcome> {
  try {
    await outbound.check(new URL(url).hostname, 'webhook_url');
  } catch (error) {
    if (error instanceof OutboundRefused) return { attempt, error: error.message, refused: true };
    throw error;
  }
  try {
    const response = await fetch(url, {
      method: 'POST',
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': 'analytics-alerts/1',
        [SIGNATURE_HEADER]: signature(secret, body),
      },
      body,
    });
    // The answer's body is not read into the history (a receiver's text is not ours to store); drain it.
    await response.body?.cancel();
    const ok = response.status >= 200 && response.status < 300;
    return {
      attempt,
      httpStatus: response.status,
      ...(ok ? {} : { error: `the webhook answered ${response.status}` }),
    };
  } catch (error) {
    const name = (error as Error).name;
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    const reason = name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : (cause ?? 'the request failed');
    return { attempt, error: `the webhook was not reached: ${reason}` };
  }
}
