import { FormEvent, useState } from 'react';
import { projectControllerUpdate, usageControllerGet } from '../api/generated';
import { results } from '../api/http';
import { Chart } from '../chart';
import { ErrorNote, Field, Loading, useLoad } from '../components';
import { daysAgo } from '../days';
import { useConsole, utcDay } from '../project';

/** GET /api/app/projects/{id}/usage, as docs/usage.md describes it. */
interface Usage {
  events: { total: number; oldest: string | null; newest: string | null; per_day: { date: string; events: number }[] };
  bytes_on_disk: number;
  profiles: number;
  groups: number;
  data_retention_days: number | null;
}

const CHART_DAYS = 30;
const count = new Intl.NumberFormat('en');

function bytes(n: number): string {
  const units = ['bytes', 'kB', 'MB', 'GB', 'TB'];
  let value = n;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

/** The last 30 UTC days, oldest first, each with its events (0 for a day without). */
function lastDays(perDay: Usage['events']['per_day']): { labels: string[]; values: Record<string, number> } {
  const labels = Array.from({ length: CHART_DAYS }, (_, i) => daysAgo(CHART_DAYS - 1 - i));
  return { labels, values: Object.fromEntries(perDay.map((d) => [d.date, d.events])) };
}

/** The project's usage (what it stores) and its data retention setting. */
export function UsageSection() {
  const { project } = useConsole();
  const [tick, setTick] = useState(0);
  const usage = useLoad(
    () =>
      results<Usage>(
        usageControllerGet({
          path: { projectId: project.id },
          query: { from_date: daysAgo(CHART_DAYS - 1), to_date: utcDay(new Date()) },
        }),
      ),
    [project.id, tick],
  );
  const value = usage.value;
  const chart = value ? lastDays(value.events.per_day) : undefined;
  return (
    <section aria-labelledby="usage-title">
      <h2 id="usage-title">Usage</h2>
      {usage.loading && !value ? <Loading what="usage" /> : null}
      {value && chart ? (
        <>
          <dl className="facts" aria-label="Usage">
            <dt>Events stored</dt>
            <dd>{count.format(value.events.total)}</dd>
            <dt>Oldest event</dt>
            <dd>{value.events.oldest ?? 'none'}</dd>
            <dt>Newest event</dt>
            <dd>{value.events.newest ?? 'none'}</dd>
            <dt>Bytes on disk (estimate)</dt>
            <dd>{bytes(value.bytes_on_disk)}</dd>
            <dt>User profiles</dt>
            <dd>{count.format(value.profiles)}</dd>
            <dt>Group profiles</dt>
            <dd>{count.format(value.groups)}</dd>
          </dl>
          <Chart
            kind="bar"
            labels={chart.labels}
            series={[{ name: 'Events', values: chart.values }]}
            description={`Events stored per day over the last ${CHART_DAYS} days (UTC)`}
          />
          <table aria-label="Events per day">
            <thead>
              <tr>
                <th scope="col">Day (UTC)</th>
                <th scope="col">Events</th>
              </tr>
            </thead>
            <tbody>
              {[...value.events.per_day].reverse().map((day) => (
                <tr key={day.date}>
                  <td>{day.date}</td>
                  <td>{count.format(day.events)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <RetentionForm days={value.data_retention_days} onSaved={() => setTick((n) => n + 1)} />
        </>
      ) : null}
      <ErrorNote error={usage.error} />
    </section>
  );
}

/** `data_retention_days`: whole days, or empty for "keep forever"; admins and owners may change it. */
function RetentionForm({ days, onSaved }: { days: number | null; onSaved(): void }) {
  const { project } = useConsole();
  const [error, setError] = useState<unknown>();
  const [saved, setSaved] = useState(false);

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const text = String(new FormData(event.currentTarget).get('data_retention_days') ?? '').trim();
    setError(undefined);
    setSaved(false);
    const value = text === '' ? null : Number(text);
    if (value !== null && !Number.isInteger(value))
      return setError(new Error('Give a whole number of days, or leave it empty to keep events forever.'));
    try {
      await results(
        projectControllerUpdate({ path: { projectId: project.id }, body: { data_retention_days: value } as never }),
      );
      setSaved(true);
      onSaved();
    } catch (failure) {
      setError(failure);
    }
  }

  return (
    <form className="filters" onSubmit={save} aria-label="Data retention">
      <Field label="Data retention (days)" hint="Empty: keep events forever. Admins and owners may change it.">
        <input name="data_retention_days" type="number" min={1} step={1} defaultValue={days ?? ''} />
      </Field>
      <button type="submit">Save retention</button>
      <p className="muted" role="status">
        {saved ? 'Saved. ' : ''}
        {days === null ? 'Events are kept forever.' : `Events are kept for ${days} days.`}
      </p>
      <ErrorNote error={error} />
    </form>
  );
}
