/** The formats of the settings that name a place: engines, brokers, credentials, URLs, object-key prefixes. */
export const SERVICE_URL = /^(https?:\/\/[^\s]+|chdb:.+)$/;
export const DATABASE_URL = /^(postgres(ql)?:\/\/[^\s]+|pglite:.+)$/;
export const BROKER = /^[A-Za-z0-9.\-_[\]:]+:\d{1,5}$/;
export const CREDENTIAL = /^[A-Za-z0-9_-]+$/;
export const HTTP_URL = /^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/;
/** Path segments of letters, digits, ".", "_", "-" (none starting with "."), "/"-separated, optional trailing "/". */
export const KEY_PREFIX = /^[A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*\/?$/;
