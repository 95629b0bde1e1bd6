import { projectScope, ScopedRows } from '@analytics/tenancy';

/**
 * A batch's items by project, each group with its project's scope. The writer applies updates the
 * gateway authenticated (each names its project by the token it checked), so it is where their
 * scopes are made.
 */
export function byProject<T extends { projectId: number }>(items: T[]): ScopedRows<T>[] {
  const groups = new Map<number, T[]>();
  for (const item of items) {
    const group = groups.get(item.projectId);
    if (group) group.push(item);
    else groups.set(item.projectId, [item]);
  }
  return [...groups].map(([projectId, rows]) => ({ scope: projectScope(projectId), rows }));
}
