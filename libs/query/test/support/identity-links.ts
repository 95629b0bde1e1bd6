import { IdentityClusters, IdentityLink, MAX_CLUSTER_IDS } from '@analytics/events';
import { IdentityMetrics, IdentityRepository, IdentityWriter } from '@analytics/identity';
import { MetricsService } from '@analytics/observability';
import { Registry } from 'prom-client';
import { DAY_MS } from '../../src/time/utc-days';
import { arrivalBatches } from './generate-events';
import { Random } from './random';
import { EventsStore } from './stored-events';

/**
 * Links among a scenario's users (`u0`…, as generateEvents names them): in `original` mode chains,
 * random pairs and aliases; in `simplified` mode users' ids act as devices of `user-N` ids. Several
 * links may name one id, so clusters grow through chains.
 */
export function generateLinks(random: Random, projectId: number, users: number, aroundDay: number): IdentityLink[] {
  const mode = random.chance(0.5) ? 'original' : 'simplified';
  const id = () => `u${random.int(0, users - 1)}`;
  const timeMs = () => (aroundDay + random.int(-3, 3)) * DAY_MS + random.int(0, DAY_MS - 1);
  const links: IdentityLink[] = [];
  for (let i = random.int(0, users + 1); i > 0; i--) {
    if (mode === 'simplified') {
      links.push({ projectId, mode, a: id(), b: `user-${random.int(0, 2)}`, timeMs: timeMs() });
      continue;
    }
    const [a, b] = [id(), random.chance(0.3) ? `alias-${random.int(0, 2)}` : id()];
    if (a === b) continue;
    links.push({ projectId, mode, a, b, ...(random.chance(0.5) && { identified: b }), timeMs: timeMs() });
  }
  return links;
}

/**
 * Clusters at the 500-id limit for a project's users: `u0` in one of exactly MAX_CLUSTER_IDS ids,
 * `u1` in one of one fewer. Joining them is refused; `u2` then fits into u1's (500 ids), and
 * `u3` no longer does.
 */
export function fullClusterLinks(projectId: number): IdentityLink[] {
  const fill = (user: string, aliases: number) =>
    Array.from({ length: aliases }, (_, i) => ({
      projectId,
      mode: 'original' as const,
      a: `${user}-alias-${i}`,
      b: user,
      identified: user,
      timeMs: i,
    }));
  const link = (a: string, b: string, timeMs: number): IdentityLink => ({ projectId, mode: 'original', a, b, timeMs });
  return [
    ...fill('u0', MAX_CLUSTER_IDS - 1),
    ...fill('u1', MAX_CLUSTER_IDS - 2),
    link('u0', 'u1', 1),
    link('u2', 'u1', 2),
    link('u3', 'u1', 3),
  ];
}

/** The mapping as the references see it: the links applied in the order they were sent. */
export const identitiesOf = (links: IdentityLink[]) => IdentityClusters.of(links);

/**
 * Applies the links through the real identity writer. Without a limit in reach, the order does not
 * matter and they go in shuffled across several batches (merges arriving out of order); with
 * `inOrder`, as sent (the 500-id limit refuses by arrival order).
 */
export async function applyLinks(
  store: EventsStore,
  random: Random,
  links: IdentityLink[],
  inOrder = false,
): Promise<void> {
  const writer = new IdentityWriter(
    new IdentityRepository(store.client),
    new IdentityMetrics({ registry: new Registry() } as unknown as MetricsService),
  );
  for (const batch of inOrder ? [links] : arrivalBatches(random, links, 4)) await writer.apply(batch);
}
