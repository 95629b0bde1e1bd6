import { useEffect, useRef, useState } from 'react';
import { readApi } from '../api/http';
import { ErrorNote, Field } from '../components';
import { clockIn, daysAgo } from '../days';
import { useConsole } from '../project';
import { PropertyTable } from './events';

interface StreamEvent {
  event: string;
  properties: Record<string, unknown> & { time: number; $insert_id?: string; distinct_id?: string };
}
interface StreamPage {
  results: { events: StreamEvent[] };
  next_cursor: string | null;
}
interface Feed {
  events: StreamEvent[];
  next?: string | null;
  loading: boolean;
  error?: unknown;
}

/** Events a page: enough to fill a screen, few enough for the query to stay quick on a busy person. */
export const ACTIVITY_PAGE = 50;
const RANGES = [7, 30, 90, 365, 3650];

/**
 * A person's activity feed: the events of their whole identity cluster (every id merged with this
 * one), newest first, a page at a time through the activity stream's cursor (`GET /stream/query`).
 */
export function ProfileActivity({ distinctId }: { distinctId: string }) {
  const { project } = useConsole();
  const [days, setDays] = useState(90);
  const [feed, setFeed] = useState<Feed>({ events: [], loading: true });
  // A newer request (another person, another range) wins over one still on its way.
  const current = useRef(0);

  const read = (cursor?: string) =>
    readApi<StreamPage>('/api/query/stream/query', {
      project_id: project.id,
      distinct_ids: JSON.stringify([distinctId]),
      from_date: daysAgo(days - 1, project.timezone),
      to_date: daysAgo(0, project.timezone),
      limit: ACTIVITY_PAGE,
      cursor,
    });

  const load = (cursor?: string) => {
    const run = ++current.current;
    setFeed((f) => ({ ...f, events: cursor ? f.events : [], loading: true, error: undefined }));
    read(cursor).then(
      (page) =>
        run === current.current &&
        setFeed((f) => ({
          events: cursor ? [...f.events, ...page.results.events] : page.results.events,
          next: page.next_cursor,
          loading: false,
        })),
      (error: unknown) => run === current.current && setFeed((f) => ({ ...f, loading: false, error })),
    );
  };

  // eslint-disable-next-line react-hooks/exhaustive-deps
  useEffect(() => load(), [project.id, distinctId, days]);

  const zone = project.timezone ?? 'UTC';
  return (
    <section aria-labelledby="activity-title">
      <h3 id="activity-title">Activity</h3>
      <Field label="Days" hint={`Counted in ${zone}`}>
        <select value={days} onChange={(e) => setDays(Number(e.target.value))}>
          {RANGES.map((n) => (
            <option key={n} value={n}>
              last {n} days
            </option>
          ))}
        </select>
      </Field>
      <ErrorNote error={feed.error} />
      <ol className="activity" aria-label="Activity, newest first">
        {feed.events.map((e) => (
          <li key={`${e.properties.time}|${e.event}|${String(e.properties.$insert_id)}`}>
            <details>
              <summary>
                {clockIn(new Date(e.properties.time * 1000), zone)} — {e.event}
              </summary>
              <PropertyTable properties={e.properties} />
            </details>
          </li>
        ))}
      </ol>
      {!feed.loading && !feed.error && !feed.events.length ? (
        <p className="muted">No event from this person in the last {days} days: pick a longer range above.</p>
      ) : null}
      {feed.loading ? (
        <p className="muted" role="status">
          Loading events…
        </p>
      ) : feed.next ? (
        <button onClick={() => load(feed.next ?? undefined)}>Load more</button>
      ) : feed.events.length ? (
        <p className="muted">
          {feed.events.length} events: the whole activity of the last {days} days.
        </p>
      ) : null}
    </section>
  );
}
