import type { ScopedRows } from '@analytics/tenancy';
import type { ProfileWrite } from './profile-rows';

/** The characters of rows one insert statement carries at most (a single larger row goes alone). */
export const SAVE_STATEMENT_CHARS = 16 * 1024 * 1024;

/** Each row as JSON, its project that of its group's scope, grouped into statements of at most SAVE_STATEMENT_CHARS. */
export function statementsOf(groups: ScopedRows<ProfileWrite>[]): string[][] {
  const statements: string[][] = [];
  let size = Infinity;
  for (const { scope, rows } of groups)
    for (const p of rows) {
      const row = JSON.stringify({
        project_id: scope.projectId,
        group_key: p.groupKey,
        profile_id: p.profileId,
        properties: p.properties,
        property_times: p.stamps,
        created_at: p.createdAt ?? null,
      });
      if (size + row.length > SAVE_STATEMENT_CHARS) {
        statements.push([]);
        size = 0;
      }
      statements[statements.length - 1].push(row);
      size += row.length + 1;
    }
  return statements;
}
