import {
  retentionReportsControllerCreate,
  retentionReportsControllerGet,
  retentionReportsControllerList,
  retentionReportsControllerUpdate,
} from '../api/generated';
import { results } from '../api/http';
import { useLoad } from '../components';
import { Link, navigate, useLocation } from '../router';

/** What a saved retention report holds (no dates: the page, or the board showing it, gives them). */
export interface RetentionDefinition {
  retention_type: 'birth' | 'compounded';
  born_event?: string;
  event?: string;
  unit: 'day' | 'week' | 'month';
  interval_count: number;
}
export interface SavedRetention extends RetentionDefinition {
  id: number;
  name: string;
}

/** The saved retention reports and the one the link opens (`/retention?report=<id>`), and a way to save. */
export function useSavedRetention(projectId: number) {
  const reportId = Number(useLocation().searchParams.get('report')) || undefined;
  const path = { projectId };
  const list = useLoad(
    () => results<SavedRetention[]>(retentionReportsControllerList({ path })),
    [projectId, reportId],
  );
  const report = useLoad(
    async () =>
      reportId
        ? results<SavedRetention>(retentionReportsControllerGet({ path: { ...path, id: reportId } }))
        : undefined,
    [projectId, reportId],
  );
  async function save(name: string, definition: RetentionDefinition): Promise<void> {
    const body = { name, ...definition };
    const saved = await results<SavedRetention>(
      reportId
        ? retentionReportsControllerUpdate({ path: { ...path, id: reportId }, body })
        : retentionReportsControllerCreate({ path, body }),
    );
    if (saved.id === reportId) report.reload();
    else navigate(`/retention?report=${saved.id}`);
    list.reload();
  }
  return { reportId, report, list, save };
}

export function SavedRetentionList({ reports }: { reports?: SavedRetention[] }) {
  return (
    <section aria-labelledby="saved-retention-title">
      <h2 id="saved-retention-title">Saved retention reports</h2>
      <ul>
        {(reports ?? []).map((r) => (
          <li key={r.id}>
            <Link href={`/retention?report=${r.id}`}>{r.name}</Link>
          </li>
        ))}
      </ul>
      {reports && !reports.length ? (
        <p className="muted">No saved retention report yet: save one to show it on a board.</p>
      ) : null}
    </section>
  );
}
