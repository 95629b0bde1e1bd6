import { FormEvent, useEffect, useRef, useState } from 'react';
import { ApiError, readApi } from '../api/http';
import { ErrorNote, Field, FirstStep, PageTitle, useLoad } from '../components';
import { liveWhere, readNewest } from '../live-window';
import { daysAgo } from '../days';
import { useConsole } from '../project';

interface ExportedEvent {
  event: string;
  properties: Record<string, unknown> & { time: number; distinct_id: string; $insert_id: string };
}

/** How often the live view asks again, how many events it shows, and the most one read returns. */
const POLL_MS = 10_000;
const SHOWN = 100;
const READ = 2000;

/**
 * The newest events through the raw export (`/api/2.0/export`, at most today and yesterday in
 * UTC, in a window of event time that one read holds: see live-window.ts), asked again every 10 s
 * while the tab is visible; a 429 waits for its Retry-After.
 */
export function EventsPage() {
  const { project, empty, refreshEmpty } = useConsole();
  const [filter, setFilter] = useState({ event: '', where: '' });
  const [events, setEvents] = useState<ExportedEvent[]>();
  const [error, setError] = useState<unknown>();
  const [selected, setSelected] = useState<ExportedEvent>();
  const [updated, setUpdated] = useState<Date>();
  const timer = useRef<number | undefined>(undefined);
  const liveWindow = useRef(1);
  const names = useLoad(
    () => readApi<string[]>('/api/query/events/names', { project_id: project.id, limit: 100 }),
    [project.id, empty],
  );

  useEffect(() => {
    let stopped = false;
    async function poll() {
      let wait = POLL_MS;
      if (document.visibilityState === 'visible') {
        try {
          const read = async (windowS: number) => {
            const text = await readApi<string>(
              '/api/2.0/export',
              {
                project_id: project.id,
                // The raw export keeps UTC days whatever the project's zone.
                from_date: daysAgo(1),
                to_date: daysAgo(0),
                limit: READ,
                event: filter.event ? JSON.stringify([filter.event]) : undefined,
                where: liveWhere(windowS, Date.now(), filter.where),
              },
              'text',
            );
            return text
              .split('\n')
              .filter((line) => line.trim())
              .map((line) => JSON.parse(line) as ExportedEvent);
          };
          const newest = await readNewest(liveWindow.current, read, { readLimit: READ, wanted: SHOWN });
          if (stopped) return;
          liveWindow.current = newest.window;
          const parsed = newest.rows;
          parsed.sort((a, b) => b.properties.time - a.properties.time);
          setEvents(parsed.slice(0, SHOWN));
          setError(undefined);
          setUpdated(new Date());
          if (parsed.length && empty) refreshEmpty();
        } catch (failure) {
          if (stopped) return;
          setError(failure);
          if (failure instanceof ApiError && failure.retryAfter) wait = failure.retryAfter * 1000;
        }
      }
      if (!stopped) timer.current = window.setTimeout(poll, wait);
    }
    void poll();
    return () => {
      stopped = true;
      window.clearTimeout(timer.current);
    };
  }, [project.id, filter, empty, refreshEmpty]);

  function applyFilter(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setFilter({ event: String(form.get('event') ?? '').trim(), where: String(form.get('where') ?? '').trim() });
  }

  return (
    <>
      <PageTitle>Events</PageTitle>
      <p className="muted" aria-live="polite">
        Live: the newest events of today and yesterday (UTC), refreshed every {POLL_MS / 1000} s.
        {updated ? ` Last update ${updated.toLocaleTimeString()}.` : ''}
      </p>
      <form className="filters" onSubmit={applyFilter} aria-label="Filter events">
        <Field label="Event name">
          <input name="event" defaultValue={filter.event} placeholder="any event" list="event-names" />
          <datalist id="event-names">
            {(names.value ?? []).map((n) => (
              <option key={n} value={n} />
            ))}
          </datalist>
        </Field>
        <Field label="Where" hint='An expression, e.g. properties["plan"] == "pro"'>
          <input name="where" defaultValue={filter.where} />
        </Field>
        <button type="submit">Apply</button>
      </form>
      <ErrorNote error={error} />
      {empty && !events?.length ? <FirstStep /> : null}
      <div className="split">
        <table aria-label="Newest events">
          <thead>
            <tr>
              <th scope="col">Time (UTC)</th>
              <th scope="col">Event</th>
              <th scope="col">Distinct id</th>
            </tr>
          </thead>
          <tbody>
            {(events ?? []).map((e) => (
              <tr
                key={`${e.event}|${e.properties.distinct_id}|${e.properties.$insert_id}|${e.properties.time}`}
                className={selected === e ? 'selected' : undefined}
              >
                <td>{new Date(e.properties.time * 1000).toISOString().replace('T', ' ').slice(0, 19)}</td>
                <td>
                  <button
                    className="linkish"
                    onClick={() => setSelected(e)}
                    aria-label={`Show the properties of ${e.event} by ${e.properties.distinct_id}`}
                  >
                    {e.event}
                  </button>
                </td>
                <td>{e.properties.distinct_id}</td>
              </tr>
            ))}
            {events && !events.length ? (
              <tr>
                <td colSpan={3}>No events match in the last two days.</td>
              </tr>
            ) : null}
          </tbody>
        </table>
        {selected ? (
          <section className="detail" aria-labelledby="event-detail-title">
            <h2 id="event-detail-title">{selected.event}</h2>
            <PropertyTable properties={selected.properties} />
            <button onClick={() => setSelected(undefined)}>Close</button>
          </section>
        ) : null}
      </div>
    </>
  );
}

export function PropertyTable({ properties }: { properties: Record<string, unknown> }) {
  return (
    <table aria-label="Properties">
      <tbody>
        {Object.entries(properties)
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([name, value]) => (
            <tr key={name}>
              <th scope="row">{name}</th>
              <td>{typeof value === 'string' ? value : JSON.stringify(value)}</td>
            </tr>
          ))}
      </tbody>
    </table>
  );
}
