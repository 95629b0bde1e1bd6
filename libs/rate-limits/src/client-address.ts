import { isIPv4, isIPv6 } from 'node:net';

/**
 * The key that counts one client by its address: an IPv4 address as it is, an IPv6 address by its
 * /64 network (one host usually holds a whole /64, so counting single addresses would let it rotate
 * past any limit), an IPv4-mapped IPv6 address as the IPv4 address. No address counts as one client.
 */
export function clientAddressKey(ip: string | undefined): string {
  if (!ip) return 'unknown';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped && isIPv4(mapped[1])) return mapped[1];
  if (isIPv4(ip)) return ip;
  if (!isIPv6(ip)) return 'unknown';
  return `${expandIPv6(ip.split('%')[0]).slice(0, 4).join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address, `::` filled in (an embedded IPv4 tail as two groups). */
function expandIPv6(ip: string): string[] {
  const withoutV4 = ip.replace(
    /(\d+)\.(\d+)\.(\d+)\.(\d+)$/,
    (_, a, b, c, d) => `${((+a << 8) | +b).toString(16)}:${((+c << 8) | +d).toString(16)}`,
  );
  const [head, tail] = withoutV4.split('::');
  const left = head ? head.split(':') : [];
  const right = tail === undefined ? [] : tail ? tail.split(':') : [];
  const zeros = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((group) => parseInt(group, 16).toString(16));
}
