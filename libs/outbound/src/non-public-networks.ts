/**
 * Address ranges that are not the public internet (IANA's special-purpose registries): private,
 * loopback, link-local (cloud metadata at 169.254.169.254 and fd00:ec2::254), shared CGNAT,
 * documentation, benchmarking, multicast, reserved, and IPv6 forms that embed an IPv4 address
 * (NAT64, 6to4, Teredo), so no private address slips through in another spelling. IPv4-mapped
 * IPv6 (`::ffff:a.b.c.d`) is checked as its IPv4 address by node's BlockList.
 */
export const NON_PUBLIC_NETWORKS: readonly string[] = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.0.2.0/24',
  '192.88.99.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '224.0.0.0/4',
  '240.0.0.0/4',
  '::/128',
  '::1/128',
  '64:ff9b::/96',
  '64:ff9b:1::/48',
  '100::/64',
  '2001::/23',
  '2001:db8::/32',
  '2002::/16',
  'fc00::/7',
  'fe80::/10',
  'fec0::/10',
  'ff00::/8',
];
