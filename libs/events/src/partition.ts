/**
 * Which partition a user's events go to: FNV-1a over project and distinct_id, so one user's
 * events stay on one partition (in order, and together on one ClickHouse shard downstream).
 */
export function partitionFor(projectId: number, distinctId: string, partitions: number): number {
  let hash = 0x811c9dc5 ^ projectId;
  for (let i = 0; i < distinctId.length; i++) {
    hash ^= distinctId.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % partitions;
}
