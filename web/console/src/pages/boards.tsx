import { FormEvent, useState } from 'react';
import { client } from '../api/generated/client.gen';
import { readApi, results } from '../api/http';
import { ErrorNote, Field, Loading, PageTitle, useLoad } from '../components';
import { daysAgo } from '../days';
import { useConsole } from '../project';
import { Link, navigate, useLocation } from '../router';
import { BoardGrid, Tile, TileView } from './board-tile';
import { sharedBoardLink } from './shared-board';

type DateRange = { last_days: number } | { from_date: string; to_date: string };
interface Board {
  id: number;
  name: string;
  description: string;
  date_range: DateRange;
  where: string;
  tiles: Tile[];
  shared_until: string | null;
}
interface BoardSummary {
  id: number;
  name: string;
  description: string;
  tile_count: number;
}
interface Report {
  kind: Tile['kind'];
  id: number;
  name: string;
}

// The app API's board routes through the generated client's transport (credentials, console budget).
const send = <T,>(method: 'post' | 'delete', url: string, body?: unknown) =>
  results<T>(client[method]({ url, body, headers: { 'Content-Type': 'application/json' } }));

/** The days a board's range covers, as the query API takes them: the project's days, as the shared view counts them. */
const daysOf = (range: DateRange, zone?: string) =>
  'last_days' in range ? { from_date: daysAgo(range.last_days - 1, zone), to_date: daysAgo(0, zone) } : range;

/** Boards: saved reports side by side over one date range and filter; each tile loads on its own. */
export function BoardsPage() {
  const id = Number(useLocation().searchParams.get('id')) || undefined;
  return id ? <BoardView id={id} /> : <BoardList />;
}

function BoardList() {
  const { project } = useConsole();
  const [error, setError] = useState<unknown>();
  const base = `/api/app/projects/${project.id}`;
  const boards = useLoad(() => readApi<{ results: BoardSummary[] }>(`${base}/boards`, {}), [project.id]);
  const reports = useLoad(async () => {
    const [bookmarks, funnels, retention] = await Promise.all([
      readApi<{ results: { id: number; name: string }[] }>(`${base}/bookmarks`, {}),
      readApi<{ results: { funnel_id: number; name: string }[] }>(`${base}/funnels`, {}),
      readApi<{ results: { id: number; name: string }[] }>(`${base}/retention-reports`, {}),
    ]);
    return [
      ...bookmarks.results.map((b): Report => ({ kind: 'insights', id: b.id, name: b.name })),
      ...funnels.results.map((f): Report => ({ kind: 'funnel', id: f.funnel_id, name: f.name })),
      ...retention.results.map((r): Report => ({ kind: 'retention', id: r.id, name: r.name })),
    ];
  }, [project.id]);

  async function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const picked = (reports.value ?? []).filter((r) => form.get(`${r.kind}-${r.id}`));
    // Two tiles a row, each half the 12-column grid.
    const tiles = picked.map((r, i) => ({
      kind: r.kind,
      report_id: r.id,
      layout: { x: (i % 2) * 6, y: Math.floor(i / 2) * 4, w: 6, h: 4 },
    }));
    try {
      const board = await send<Board>('post', `${base}/boards`, {
        name: form.get('name'),
        tiles,
        date_range: { last_days: Number(form.get('last_days')) },
        where: form.get('where') || undefined,
      });
      navigate(`/boards?id=${board.id}`);
    } catch (failure) {
      setError(failure);
    }
  }

  return (
    <>
      <PageTitle>Boards</PageTitle>
      <ErrorNote error={boards.error ?? reports.error ?? error} />
      <ul aria-label="Boards">
        {(boards.value?.results ?? []).map((b) => (
          <li key={b.id}>
            <Link href={`/boards?id=${b.id}`}>{b.name}</Link> <span className="muted">({b.tile_count} reports)</span>{' '}
            {b.description}
          </li>
        ))}
        {boards.value && !boards.value.results.length ? (
          <li>No board yet: make one from saved reports below.</li>
        ) : null}
      </ul>
      <form onSubmit={create} aria-labelledby="new-board">
        <h2 id="new-board">New board</h2>
        <Field label="Name">
          <input name="name" required maxLength={255} />
        </Field>
        <Field label="Last days">
          <input name="last_days" type="number" min={1} max={3650} defaultValue={30} />
        </Field>
        <Field label="Where (every report)" hint='e.g. properties["plan"] == "pro"'>
          <input name="where" maxLength={10000} />
        </Field>
        <fieldset>
          <legend>Saved reports</legend>
          {(reports.value ?? []).map((r) => (
            <label key={`${r.kind}-${r.id}`} className="check">
              <input type="checkbox" name={`${r.kind}-${r.id}`} /> {r.name} ({r.kind})
            </label>
          ))}
          {reports.value && !reports.value.length ? (
            <p>
              No saved report yet: save one on <Link href="/insights">Insights</Link>,{' '}
              <Link href="/funnels">Funnels</Link> or <Link href="/retention">Retention</Link>.
            </p>
          ) : null}
        </fieldset>
        <button type="submit">Create board</button>
      </form>
    </>
  );
}

function BoardView({ id }: { id: number }) {
  const { project, account } = useConsole();
  const url = `/api/app/projects/${project.id}/boards/${id}`;
  const board = useLoad(() => readApi<{ results: Board }>(url, {}), [url]);
  const [link, setLink] = useState<string>();
  const [error, setError] = useState<unknown>();
  const writer = account.role !== 'consumer';
  if (board.error) return <ErrorNote error={board.error} />;
  if (!board.value) return <Loading what="the board" />;
  const b = board.value.results;
  const range = daysOf(b.date_range, project.timezone);

  // The link opens the console's read-only page of the board (the API's `url` answers the board as JSON).
  const share = () =>
    send<{ token: string }>('post', `${url}/share`, {}).then((s) => setLink(sharedBoardLink(s.token)), setError);
  const revoke = () => send('delete', `${url}/share`).then(() => setLink(undefined), setError);

  return (
    <>
      <PageTitle>{b.name}</PageTitle>
      <p>
        {b.description}{' '}
        <span className="muted">{`${range.from_date} to ${range.to_date} (${project.timezone ?? 'UTC'})`}</span>
        {b.where ? <code> where {b.where}</code> : null}
      </p>
      <p>
        <Link href="/boards">All boards</Link>{' '}
        {writer ? (
          <>
            <button onClick={share}>Share read-only link</button> <button onClick={revoke}>Revoke links</button>
          </>
        ) : null}
      </p>
      {link ? (
        <p role="status">
          Anyone with this link sees the board for 7 days: <input readOnly value={link} aria-label="Share link" />
        </p>
      ) : null}
      <ErrorNote error={error} />
      <BoardGrid tiles={b.tiles} render={(tile) => <TileView tile={tile} range={range} where={b.where} />} />
    </>
  );
}
