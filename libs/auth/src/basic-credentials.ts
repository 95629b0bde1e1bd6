export interface BasicCredentials {
  username: string;
  password: string;
}

const MAX_HEADER_LENGTH = 4096;
const PRINTABLE = /^[\x20-\x7e]*$/;

/**
 * Reads HTTP Basic credentials in every form the official and community clients send:
 * `base64(user:pass)`, the plain `user:pass` text, `base64(secret)` with no colon (a secret with
 * an empty password), and `base64(:secret)`, the project secret as the password of an empty
 * username (CloudQuery's Mixpanel plugin sends it so). Anything else, empty, huge or of another
 * scheme, is no credentials.
 */
export function parseBasicCredentials(header: string | undefined): BasicCredentials | undefined {
  if (!header || header.length > MAX_HEADER_LENGTH) return undefined;
  const match = /^Basic\s+(\S+)\s*$/i.exec(header);
  if (!match) return undefined;
  const token = match[1];
  if (token.includes(':')) return split(token);
  const decoded = Buffer.from(token, 'base64').toString('utf8');
  if (decoded !== '' && PRINTABLE.test(decoded)) return split(decoded);
  return { username: token, password: '' };
}

function split(text: string): BasicCredentials | undefined {
  const colon = text.indexOf(':');
  const username = colon < 0 ? text : text.slice(0, colon);
  const password = colon < 0 ? '' : text.slice(colon + 1);
  if (username === '') return password === '' ? undefined : { username: password, password: '' };
  return { username, password };
}
