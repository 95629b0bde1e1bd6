import { client } from './generated/client.gen';
import { basicAuthorization } from './session';

/** A failed API call, in words a person can act on. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    /** Seconds the API asked us to wait (429, 503). */
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

/** The message inside any of the API families' error bodies: `{status:'error', error}`, `{request, error}`, `{error, status:0}`. */
function errorText(body: unknown): string | undefined {
  if (body && typeof body === 'object' && 'error' in body && typeof (body as { error: unknown }).error === 'string')
    return (body as { error: string }).error;
  if (typeof body === 'string' && body.trim()) return body.trim().slice(0, 300);
  return undefined;
}

export function describeFailure(status: number, body: unknown, retryAfter?: number): ApiError {
  const detail = errorText(body);
  const lead: Record<number, string> = {
    400: 'The request was refused',
    401: 'The username or secret was not accepted',
    403: 'Your credentials may not do this',
    404: 'Not found',
    413: 'The request is too large',
    429: `Too many requests for this project${retryAfter ? `: try again in ${retryAfter} s` : ''}`,
    503: 'The service is unavailable for a moment',
  };
  const head = lead[status] ?? (status >= 500 ? `The server failed (${status})` : `Unexpected answer (${status})`);
  return new ApiError(detail ? `${head}: ${detail}` : `${head}.`, status, retryAfter);
}

let authorization: string | undefined;

/** Says the call comes from the console, so it spends the console's own budget (CONSOLE_*_LIMIT_*), not the API's. */
const CONSOLE_CLIENT = { 'X-Analytics-Console': '1' };

/** Every call from now on carries these credentials (the generated client and the raw calls alike). */
export function setCredentials(username: string, secret: string): void {
  authorization = basicAuthorization(username, secret);
  client.setConfig({ baseUrl: window.location.origin, headers: { Authorization: authorization, ...CONSOLE_CLIENT } });
}

export function forgetCredentials(): void {
  authorization = undefined;
  client.setConfig({ baseUrl: window.location.origin, headers: { Authorization: null } });
}

interface Outcome<T> {
  data?: T;
  error?: unknown;
  response?: Response;
}

/** The data of a generated-client call, or an {@link ApiError} in words. */
export async function unwrap<T>(call: Promise<Outcome<T>>): Promise<T> {
  let outcome: Outcome<T>;
  try {
    outcome = await call;
  } catch (error) {
    throw new ApiError(`The server could not be reached: ${(error as Error).message}`, 0);
  }
  const { response } = outcome;
  if (!response || !response.ok) {
    const retry = Number(response?.headers.get('Retry-After')) || undefined;
    throw describeFailure(response?.status ?? 0, outcome.error, retry);
  }
  return outcome.data as T;
}

/** The app API's envelope `{status:'ok', results}`. */
export async function results<T>(call: Promise<Outcome<unknown>>): Promise<T> {
  const body = (await unwrap(call)) as { results?: T } | T;
  return body && typeof body === 'object' && 'results' in (body as object)
    ? (body as { results: T }).results
    : (body as T);
}

export type Params = Record<string, string | number | boolean | undefined>;

/** A reading-API call whose query parameters the OpenAPI document does not declare: through the same generated client. */
export function readApi<T>(url: string, query: Params, parseAs: 'json' | 'text' = 'json'): Promise<T> {
  const defined = Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined && v !== '')) as Record<
    string,
    string | number | boolean
  >;
  return unwrap<T>(client.get({ url, query: defined, parseAs }) as Promise<Outcome<T>>);
}

/** A form POST (the query API's cohort list and member query take form fields). */
export function postForm<T>(url: string, fields: Params): Promise<T> {
  const body = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) body.set(key, String(value));
  return unwrap<T>(
    client.post({
      url,
      body,
      bodySerializer: (b: unknown) => b as URLSearchParams,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    }) as Promise<Outcome<T>>,
  );
}
