import { IdentityLink, ORIGINAL_LINK_KINDS, OriginalLinkKind } from '@analytics/events';
import { isProjectId } from '@analytics/tenancy';

/** A link as the identities topic carries it: its own JSON, one link per message (so a refused one is dead-lettered alone). */
export function encodeLink(link: IdentityLink): string {
  return JSON.stringify({
    projectId: link.projectId,
    mode: link.mode,
    kind: link.kind,
    a: link.a,
    b: link.b,
    identified: link.identified,
    timeMs: link.timeMs,
  });
}

/**
 * The link a message holds; throws with the reason when the value is not one (it then goes to the
 * dead-letter topic). A message without `kind` (sent before the merge rules) is applied as `$merge`,
 * as it was when sent.
 */
export function decodeLink(value: Buffer | string): IdentityLink {
  const parsed = JSON.parse(value.toString()) as Partial<IdentityLink>;
  const { projectId, mode, kind, a, b, identified, timeMs } = parsed ?? {};
  const valid =
    isProjectId(projectId) &&
    (mode === 'simplified' || mode === 'original') &&
    typeof a === 'string' &&
    typeof b === 'string' &&
    (identified === undefined || typeof identified === 'string') &&
    (kind === undefined || (ORIGINAL_LINK_KINDS as readonly unknown[]).includes(kind)) &&
    Number.isFinite(timeMs);
  if (!valid) throw new Error('not an identity link');
  return {
    projectId: projectId!,
    mode,
    ...(kind !== undefined && { kind: kind as OriginalLinkKind }),
    a,
    b,
    ...(identified !== undefined && { identified }),
    timeMs: timeMs!,
  };
}

/** A project's links all take one partition: applied in the order they were sent. */
export const linkPartition = (projectId: number, partitions: number) => projectId % partitions;
