import { isIP } from 'node:net';

export interface Network {
  address: string;
  prefix: number;
  family: 'ipv4' | 'ipv6';
}

/** `a.b.c.d/n`, `x::/n` or a bare address (a /32 or /128), as OUTBOUND_ALLOWED_NETWORKS lists them. */
export function parseNetwork(text: string): Network | undefined {
  const [address, bits, ...rest] = text.trim().split('/');
  const version = isIP(address);
  if (!version || rest.length) return undefined;
  const max = version === 4 ? 32 : 128;
  const prefix = bits === undefined ? max : /^\d{1,3}$/.test(bits) ? Number(bits) : NaN;
  if (!(prefix >= 0 && prefix <= max)) return undefined;
  return { address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}
