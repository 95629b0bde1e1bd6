import { OutboundPolicy } from './outbound-policy';

describe('outbound policy', () => {
  const byDefault = new OutboundPolicy();

  it('allows public addresses and refuses private, loopback, link-local, metadata and CGNAT ranges, however spelled', () => {
    for (const address of ['8.8.8.8', '52.216.0.1', '2606:4700:4700::1111'])
      expect([address, byDefault.allows(address)]).toEqual([address, true]);
    const refused = [
      '127.0.0.1',
      '10.0.0.5',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fd00:ec2::254',
      'fe80::1',
      // 169.254.169.254 as IPv4-mapped, NAT64 and 6to4 IPv6.
      '::ffff:169.254.169.254',
      '::ffff:a9fe:a9fe',
      '64:ff9b::a9fe:a9fe',
      '2002:a9fe:a9fe::1',
    ];
    for (const address of refused) expect([address, byDefault.allows(address)]).toEqual([address, false]);
  });

  it('allows what the operator lists, and nothing more', () => {
    const policy = new OutboundPolicy(['127.0.0.0/8', '10.1.0.0/16', 'fd12::7']);
    expect(['127.0.0.1', '10.1.2.3', 'fd12::7'].map((a) => policy.allows(a))).toEqual([true, true, true]);
    expect(['10.2.0.1', '169.254.169.254', '::1', 'fd12::8'].map((a) => policy.allows(a))).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });

  it('checks every address a name resolves to, each time it is asked (a name can be rebound)', async () => {
    let answer = ['52.216.0.1'];
    const policy = new OutboundPolicy([], async () => answer);
    await expect(policy.check('bucket.example.com', 's3_endpoint')).resolves.toBeUndefined();
    answer = ['52.216.0.1', '169.254.169.254'];
    await expect(policy.check('bucket.example.com', 's3_endpoint')).rejects.toThrow(
      's3_endpoint: bucket.example.com resolves to 169.254.169.254, which is not a public address; an operator can allow its network with OUTBOUND_ALLOWED_NETWORKS',
    );
    await expect(policy.check('[fd00:ec2::254]', 'destination')).rejects.toThrow(
      /^destination: fd00:ec2::254 is not a public address/,
    );
    const failing = new OutboundPolicy([], async () =>
      Promise.reject(Object.assign(new Error('nope'), { code: 'ENOTFOUND' })),
    );
    await expect(failing.check('nowhere.invalid', 'connection.host')).rejects.toThrow(
      'connection.host: the host nowhere.invalid could not be resolved (ENOTFOUND)',
    );
  });
});
