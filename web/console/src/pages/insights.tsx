import { FormEvent, useEffect, useMemo, useState } from 'react';
import {
  annotationsControllerList,
  bookmarksControllerCreate,
  bookmarksControllerGet,
  bookmarksControllerList,
  bookmarksControllerUpdate,
} from '../api/generated';
import { readApi, results } from '../api/http';
import { Chart, MAX_SERIES } from '../chart';
import { AnnotationForm } from './annotation-form';
import { flattenSeries, InsightsResult, label } from './insights-series';
import { DateRangeFields, ErrorNote, Field, FirstStep, PageTitle, useLoad } from '../components';
import { EventPicker, PropertyOptions, useEventNames, withName } from '../pickers';
import { daysAgo } from '../days';
import { useConsole } from '../project';
import { Link, navigate, useLocation } from '../router';

interface Metric {
  event: string;
  math: string;
  property?: string;
}
interface InsightsParams {
  events: Metric[];
  last_days?: number;
  from_date?: string;
  to_date?: string;
  unit: 'hour' | 'day' | 'week' | 'month';
  on?: string;
  limit?: number;
}
interface Bookmark {
  id: number;
  name: string;
  params: InsightsParams;
}
interface Annotation {
  id: number;
  date: string;
  description: string;
}

/** `total` counts events, `unique` users; the others read the numbers of a custom property. */
const MATHS = ['total', 'unique', 'average', 'sum', 'min', 'max', 'median', 'p90'];
const UNITS = ['hour', 'day', 'week', 'month'] as const;

/** A report's days: From and To when both are picked, else the last N days (30 when left empty). */
function range(from: string, to: string, lastDays: FormDataEntryValue | null) {
  return from && to ? { from_date: from, to_date: to } : { last_days: Number(lastDays) || 30 };
}

/** Insights: pick events and math, see them over time, break down by a property, save the report and reopen it by its link. */
export function InsightsPage() {
  const { project, empty } = useConsole();
  const location = useLocation();
  const reportId = Number(location.searchParams.get('report')) || undefined;
  const kind = location.searchParams.get('chart') === 'bar' ? 'bar' : 'line';
  const [error, setError] = useState<unknown>();
  const [tick, setTick] = useState(0);
  /** A definition run as built, before (or without) saving it. */
  const [draft, setDraft] = useState<InsightsParams>();
  const [eventsText, setEventsText] = useState<string>();
  const [propertyEvent, setPropertyEvent] = useState<string>();
  const eventNames = useEventNames(project.id);

  const saved = useLoad(
    () => results<Bookmark[]>(bookmarksControllerList({ path: { projectId: project.id } })),
    [project.id, tick],
  );
  const report = useLoad(
    async () =>
      reportId
        ? results<Bookmark>(bookmarksControllerGet({ path: { projectId: project.id, id: reportId } }))
        : undefined,
    [project.id, reportId],
  );
  // Opening a saved report shows it as saved; Run shows the form's definition until the next save.
  useEffect(() => {
    setDraft(undefined);
    setEventsText(undefined);
  }, [report.value]);
  const params = draft ?? report.value?.params;
  const run = useLoad(
    async () => {
      if (!params) return undefined;
      const query = draft
        ? { project_id: project.id, params: JSON.stringify(draft) }
        : { project_id: project.id, bookmark_id: report.value!.id };
      const [result, annotations] = await Promise.all([
        readApi<InsightsResult>('/api/query/insights', query),
        results<Annotation[]>(
          annotationsControllerList({
            path: { projectId: project.id },
            query: {
              fromDate: params.from_date ?? daysAgo((params.last_days ?? 30) - 1, project.timezone),
              toDate: params.to_date ?? daysAgo(0, project.timezone),
            },
          }),
        ),
      ]);
      return { result, annotations };
    },
    // A save reloads the report (or opens the new one), and Run sets a draft: each runs it once.
    [report.value, draft],
  );

  const chart = useMemo(() => {
    if (!run.value || !params) return undefined;
    const { labels, series } = flattenSeries(run.value.result, params.unit);
    const marks = run.value.annotations.map((a) => {
      const at = label(a.date.replace(' ', 'T'), params.unit);
      return { x: [...labels].reverse().find((l) => l <= at) ?? at, text: a.description };
    });
    return { labels, series, marks };
  }, [run.value, params]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const intent = ((event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null)?.value ?? 'run';
    const events = String(form.get('events') ?? '')
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean);
    const math = String(form.get('math'));
    const numeric = String(form.get('property') ?? '').trim();
    const property = String(form.get('on') ?? '').trim();
    const definition: InsightsParams = {
      events: events.map((e) => ({
        event: e,
        math,
        ...(numeric && math !== 'total' && math !== 'unique' ? { property: numeric } : {}),
      })),
      ...range(String(form.get('from_date') ?? ''), String(form.get('to_date') ?? ''), form.get('last_days')),
      unit: String(form.get('unit')) as InsightsParams['unit'],
      ...(property ? { on: `properties[${JSON.stringify(property)}]`, limit: MAX_SERIES } : {}),
    };
    const name = String(form.get('name') ?? '').trim() || events.join(', ');
    // The saved definition has no place for the chart's look: the link carries it.
    const chartQuery = String(form.get('chart')) === 'bar' ? '&chart=bar' : '';
    setError(undefined);
    if (!events.length) return setError(new Error('Name at least one event, e.g. Signed up.'));
    if (math !== 'total' && math !== 'unique' && !numeric)
      return setError(new Error(`The ${math} of what? Name a numeric property, e.g. amount.`));
    if (intent === 'run') return setDraft(definition);
    try {
      const body = { name, params: definition as unknown as Record<string, unknown> };
      const result = reportId
        ? await results<Bookmark>(bookmarksControllerUpdate({ path: { projectId: project.id, id: reportId }, body }))
        : await results<Bookmark>(bookmarksControllerCreate({ path: { projectId: project.id }, body }));
      setTick((n) => n + 1);
      navigate(`/insights?report=${result.id}${chartQuery}`);
      if (result.id === reportId) report.reload();
    } catch (failure) {
      setError(failure);
    }
  }

  const savedParams = report.value?.params;
  const eventsField = eventsText ?? savedParams?.events.map((e) => e.event).join(', ') ?? '';
  const breakdown = savedParams?.on ? (/^properties\["(.*)"\]$/.exec(savedParams.on)?.[1] ?? '') : '';
  return (
    <>
      <PageTitle>Insights</PageTitle>
      {empty ? <FirstStep /> : null}
      <form key={report.value?.id ?? 'new'} className="builder" onSubmit={submit} aria-label="Report definition">
        <Field label="Report name">
          <input name="name" defaultValue={report.value?.name ?? ''} />
        </Field>
        <Field label="Events" hint="Comma-separated event names, or pick them below">
          <input
            name="events"
            value={eventsField}
            onChange={(e) => setEventsText(e.target.value)}
            onBlur={(e) => setPropertyEvent(e.target.value.split(',')[0]?.trim() || undefined)}
            required
          />
        </Field>
        <EventPicker
          names={eventNames}
          onPick={(name) => {
            const next = withName(eventsField, name);
            setEventsText(next);
            setPropertyEvent(next.split(',')[0]?.trim());
          }}
        />
        <PropertyOptions
          id="insights-properties"
          projectId={project.id}
          event={propertyEvent ?? report.value?.params.events[0]?.event}
        />
        <Field label="Math">
          <select name="math" defaultValue={savedParams?.events[0]?.math ?? 'total'}>
            {MATHS.map((m) => (
              <option key={m}>{m}</option>
            ))}
          </select>
        </Field>
        <Field label="Of property" hint="For average … p90: a numeric property">
          <input name="property" list="insights-properties" defaultValue={savedParams?.events[0]?.property ?? ''} />
        </Field>
        <Field label="Interval">
          <select name="unit" defaultValue={savedParams?.unit ?? 'day'}>
            {UNITS.map((u) => (
              <option key={u}>{u}</option>
            ))}
          </select>
        </Field>
        <Field label="Last days" hint="Or pick From and To">
          <input name="last_days" type="number" min={1} max={3650} defaultValue={savedParams?.last_days ?? 30} />
        </Field>
        <DateRangeFields from={savedParams?.from_date ?? ''} to={savedParams?.to_date ?? ''} />
        <Field label="Breakdown property" hint="e.g. $browser; empty for none">
          <input name="on" list="insights-properties" defaultValue={breakdown} />
        </Field>
        <Field label="Chart">
          <select name="chart" defaultValue={kind}>
            <option value="line">line</option>
            <option value="bar">bar</option>
          </select>
        </Field>
        <button type="submit" value="run">
          Run
        </button>
        <button type="submit" value="save">
          {reportId ? 'Save changes and run' : 'Save report and run'}
        </button>
        {reportId ? <Link href="/insights">New report</Link> : null}
      </form>
      <ErrorNote error={error ?? report.error ?? run.error ?? saved.error} />
      {run.loading && params ? <p role="status">Running the report…</p> : null}
      {!params && !empty && !report.loading ? (
        <p className="muted">
          Pick one or more events above and press <strong>Run</strong>: the chart shows them over the days picked.{' '}
          <strong>Save report and run</strong> keeps the report for boards and alerts.
        </p>
      ) : null}
      {chart && params ? (
        <section aria-labelledby="result-title">
          <h2 id="result-title">{draft ? 'Unsaved report' : report.value?.name}</h2>
          {chart.series.some((s) => Object.values(s.values).some(Boolean)) ? null : (
            <p className="muted">None of these events happened in these days: widen the range, or pick other events.</p>
          )}
          <Chart
            kind={kind}
            labels={chart.labels}
            series={chart.series}
            marks={chart.marks}
            description={`${kind} chart of ${chart.series.map((s) => s.name).join(', ')} per ${params.unit}`}
          />
          <table aria-label="Sums by series">
            <thead>
              <tr>
                <th scope="col">Series</th>
                <th scope="col">Sum of the periods</th>
              </tr>
            </thead>
            <tbody>
              {chart.series.map((s) => (
                <tr key={s.name}>
                  <td>{s.name}</td>
                  <td>{Object.values(s.values).reduce((a, b) => a + b, 0)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <AnnotationForm projectId={project.id} onAdded={run.reload} />
          {chart.series.length > MAX_SERIES ? (
            <p className="muted">
              The chart shows the first {MAX_SERIES} of {chart.series.length} series; the table has them all.
            </p>
          ) : null}
        </section>
      ) : null}
      <section aria-labelledby="saved-title">
        <h2 id="saved-title">Saved reports</h2>
        <ul>
          {(saved.value ?? []).map((b) => (
            <li key={b.id}>
              <Link href={`/insights?report=${b.id}`}>{b.name}</Link>
            </li>
          ))}
        </ul>
        {saved.value && !saved.value.length ? <p className="muted">No saved report yet.</p> : null}
      </section>
    </>
  );
}
