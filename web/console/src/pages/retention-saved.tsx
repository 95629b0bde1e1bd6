import { client } from '../api/generated/client.gen';
import { readApi, results } from '../api/http';
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
  const base = `/api/app/projects/${projectId}/retention-reports`;
  const list = useLoad(() => readApi<{ results: SavedRetention[] }>(base, {}), [base, reportId]);
  const report = useLoad(
    async () =>
      reportId ? (await readApi<{ results: SavedRetention }>(`${base}/${reportId}`, {})).results : undefined,
    [base, reportId],
  );
  async function save(name: string, definition: RetentionDefinition): Promise<void> {
    const body = { name, ...definition };
    const headers = { 'Content-Type': 'application/json' };
    const saved = await results<SavedRetention>(
      reportId
        ? client.patch({ url: `${base}/${reportId}`, body, headers })
        : client.post({ url: base, body, headers }),
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
