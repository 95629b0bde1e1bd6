import { parseNetwork } from '@analytics/config';
import { BlockList, isIP } from 'node:net';
import { lookup } from 'node:dns/promises';
import { NON_PUBLIC_NETWORKS } from './non-public-networks';

/** Why a host may not be reached; the message names the host and the address, never a remote answer. */
export class OutboundRefused extends Error {}

function blockList(networks: readonly string[]): BlockList {
  const list = new BlockList();
  for (const text of networks) {
    const network = parseNetwork(text);
    if (!network) throw new Error(`not a network: ${text}`);
    list.addSubnet(network.address, network.prefix, network.family);
  }
  return list;
}

/** Resolves a host name to every address it has now; an address literal is its own answer. */
export type Resolve = (host: string) => Promise<string[]>;

const resolveAll: Resolve = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

/**
 * Which addresses the platform's outbound requests (pipeline destinations, warehouse sources) may
 * reach: public addresses, and the networks the operator allows (OUTBOUND_ALLOWED_NETWORKS). A host
 * passes when every address it resolves to does, checked when it is given and again before each
 * use, since a name can resolve elsewhere later (DNS rebinding).
 */
export class OutboundPolicy {
  private readonly nonPublic = blockList(NON_PUBLIC_NETWORKS);
  private readonly allowed: BlockList;

  constructor(
    allowedNetworks: readonly string[] = [],
    private readonly resolve: Resolve = resolveAll,
  ) {
    this.allowed = blockList(allowedNetworks);
  }

  allows(address: string): boolean {
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    try {
      return this.allowed.check(address, family) || !this.nonPublic.check(address, family);
    } catch {
      // Not an address BlockList reads (an IPv6 zone, say): not one we can vouch for.
      return false;
    }
  }

  /** Throws OutboundRefused unless every address of `host` is allowed; `what` names the field for the message. */
  async check(host: string, what: string): Promise<void> {
    const bare = host.replace(/^\[(.*)\]$/, '$1');
    let addresses: string[];
    try {
      addresses = isIP(bare) ? [bare] : await this.resolve(bare);
    } catch (error) {
      throw new OutboundRefused(
        `${what}: the host ${bare} could not be resolved (${(error as NodeJS.ErrnoException).code ?? 'lookup failed'})`,
      );
    }
    if (!addresses.length) throw new OutboundRefused(`${what}: the host ${bare} has no address`);
    const refused = addresses.find((address) => !this.allows(address));
    if (refused !== undefined) {
      throw new OutboundRefused(
        `${what}: ${bare === refused ? refused : `${bare} resolves to ${refused}, which`} is not a public address; an operator can allow its network with OUTBOUND_ALLOWED_NETWORKS`,
      );
    }
  }
}
