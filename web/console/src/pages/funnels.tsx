import { FormEvent, useEffect, useMemo, useState } from 'react';
import {
  savedFunnelsControllerCreate,
  savedFunnelsControllerGet,
  savedFunnelsControllerList,
  savedFunnelsControllerUpdate,
} from '../api/generated';
import { readApi, results } from '../api/http';
import { Chart, MAX_SERIES, Series } from '../chart';
import { DateRangeFields, ErrorNote, Field, FirstStep, PageTitle, useLoad } from '../components';
import { EventPicker, PropertyOptions, useEventNames } from '../pickers';
import { daysAgo } from '../days';
import { useConsole } from '../project';
import { Link, navigate, useLocation } from '../router';

interface SavedFunnel {
  funnel_id: number;
  name: string;
  steps: { event: string }[];
  length: number;
  length_unit: string;
}
interface Step {
  count: number;
  event: string;
  step_conv_ratio: number;
  overall_conv_ratio: number;
  avg_time: number | null;
}
interface DayResult {
  steps: Step[];
}
interface FunnelResult {
  meta: { dates: string[] };
  data: Record<string, DayResult | Record<string, DayResult>>;
}

/** Step counts summed over the dates of the range, per segment (`$overall` without a breakdown). */
export function totalsBySegment(result: FunnelResult): Map<string, Step[]> {
  const totals = new Map<string, Step[]>();
  for (const day of Object.values(result.data)) {
    const segments: Record<string, DayResult> =
      'steps' in day ? { $overall: day as DayResult } : (day as Record<string, DayResult>);
    for (const [segment, { steps }] of Object.entries(segments)) {
      const sum = totals.get(segment) ?? steps.map((s) => ({ ...s, count: 0 }));
      steps.forEach((s, i) => (sum[i].count += s.count));
      totals.set(segment, sum);
    }
  }
  for (const steps of totals.values()) {
    steps.forEach((s, i) => {
      s.step_conv_ratio = i === 0 ? 1 : steps[i - 1].count ? s.count / steps[i - 1].count : 0;
      s.overall_conv_ratio = steps[0].count ? s.count / steps[0].count : 0;
    });
  }
  return totals;
}

const percent = (ratio: number) => `${(ratio * 100).toFixed(1)} %`;

/** Funnels: steps and a window, saved, then run over a date range with an optional breakdown. */
export function FunnelsPage() {
  const { project, empty } = useConsole();
  const location = useLocation();
  const funnelId = Number(location.searchParams.get('funnel')) || undefined;
  const [range, setRange] = useState({ from: daysAgo(29, project.timezone), to: daysAgo(0, project.timezone), on: '' });
  const [error, setError] = useState<unknown>();
  const [tick, setTick] = useState(0);
  const [stepsText, setStepsText] = useState<string>();
  const eventNames = useEventNames(project.id);

  const list = useLoad(
    () => results<SavedFunnel[]>(savedFunnelsControllerList({ path: { projectId: project.id } })),
    [project.id, tick],
  );
  const funnel = useLoad(
    async () =>
      funnelId
        ? results<SavedFunnel>(savedFunnelsControllerGet({ path: { projectId: project.id, funnelId } }))
        : undefined,
    [project.id, funnelId, tick],
  );
  const run = useLoad(
    async () =>
      funnel.value
        ? readApi<FunnelResult>('/api/query/funnels', {
            project_id: project.id,
            funnel_id: funnel.value.funnel_id,
            from_date: range.from,
            to_date: range.to,
            on: range.on ? `properties[${JSON.stringify(range.on)}]` : undefined,
            limit: range.on ? MAX_SERIES : undefined,
          })
        : undefined,
    [funnel.value, range],
  );
  // Another funnel opened (or this one saved): the steps field shows it as saved.
  useEffect(() => setStepsText(undefined), [funnel.value]);
  const steps = stepsText ?? funnel.value?.steps.map((s) => s.event).join('\n') ?? '';
  const totals = useMemo(() => (run.value ? totalsBySegment(run.value) : undefined), [run.value]);

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const steps = String(form.get('steps') ?? '')
      .split('\n')
      .map((s) => s.trim())
      .filter(Boolean);
    setError(undefined);
    if (steps.length < 2) return setError(new Error('A funnel needs at least two steps: one event name per line.'));
    const body = {
      name: String(form.get('name') ?? '').trim() || steps.join(' → '),
      steps: steps.map((e) => ({ event: e })),
      length: Number(form.get('length')) || 7,
      length_unit: String(form.get('length_unit')),
    };
    try {
      const saved = funnelId
        ? await results<SavedFunnel>(savedFunnelsControllerUpdate({ path: { projectId: project.id, funnelId }, body }))
        : await results<SavedFunnel>(savedFunnelsControllerCreate({ path: { projectId: project.id }, body }));
      setTick((n) => n + 1);
      if (saved.funnel_id !== funnelId) navigate(`/funnels?funnel=${saved.funnel_id}`);
    } catch (failure) {
      setError(failure);
    }
  }

  function applyRange(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setRange({
      from: String(form.get('from_date')),
      to: String(form.get('to_date')),
      on: String(form.get('on') ?? '').trim(),
    });
  }

  const segments = totals ? [...totals.entries()] : [];
  const overall = totals?.get('$overall') ?? segments[0]?.[1];
  const chartSeries: Series[] = segments.slice(0, MAX_SERIES).map(([segment, steps]) => ({
    name: segment === '$overall' ? 'All users' : segment,
    values: Object.fromEntries(steps.map((s, i) => [`${i + 1}. ${s.event}`, s.count])),
  }));

  return (
    <>
      <PageTitle>Funnels</PageTitle>
      {empty ? <FirstStep /> : null}
      <form key={funnel.value?.funnel_id ?? 'new'} className="builder" onSubmit={save} aria-label="Funnel definition">
        <Field label="Funnel name">
          <input name="name" defaultValue={funnel.value?.name ?? ''} />
        </Field>
        <Field label="Steps" hint="One event name per line, in order">
          <textarea name="steps" rows={4} value={steps} onChange={(e) => setStepsText(e.target.value)} required />
        </Field>
        {/* A funnel may repeat a step's event (A → B → A), so a pick always adds a line. */}
        <EventPicker
          names={eventNames}
          onPick={(name) => setStepsText(steps.trim() ? `${steps.trimEnd()}\n${name}` : name)}
        />
        <Field label="Window">
          <input name="length" type="number" min={1} max={90} defaultValue={funnel.value?.length ?? 7} />
        </Field>
        <Field label="Window unit">
          <select name="length_unit" defaultValue={funnel.value?.length_unit ?? 'day'}>
            {['second', 'minute', 'hour', 'day'].map((u) => (
              <option key={u}>{u}</option>
            ))}
          </select>
        </Field>
        <button type="submit">{funnelId ? 'Save changes' : 'Save funnel'}</button>
        {funnelId ? <Link href="/funnels">New funnel</Link> : null}
      </form>
      {funnel.value ? (
        <form className="filters" onSubmit={applyRange} aria-label="Date range and breakdown">
          <DateRangeFields from={range.from} to={range.to} />
          <Field label="Breakdown property" hint="e.g. $browser">
            <input name="on" list="funnel-properties" defaultValue={range.on} />
          </Field>
          <button type="submit">Run</button>
          <PropertyOptions id="funnel-properties" projectId={project.id} event={funnel.value.steps[0]?.event} />
        </form>
      ) : null}
      <ErrorNote error={error ?? funnel.error ?? run.error ?? list.error} />
      {overall && funnel.value ? (
        <section aria-labelledby="funnel-result-title">
          <h2 id="funnel-result-title">{funnel.value.name}</h2>
          <Chart
            kind="bar"
            labels={overall.map((s, i) => `${i + 1}. ${s.event}`)}
            series={chartSeries}
            description={`Conversion of ${funnel.value.name} by step`}
          />
          <table aria-label="Steps">
            <thead>
              <tr>
                <th scope="col">Step</th>
                <th scope="col">Users</th>
                <th scope="col">From previous</th>
                <th scope="col">From start</th>
              </tr>
            </thead>
            <tbody>
              {overall.map((s, i) => (
                <tr key={i}>
                  <td>
                    {i + 1}. {s.event}
                  </td>
                  <td>{s.count}</td>
                  <td>{percent(s.step_conv_ratio)}</td>
                  <td>{percent(s.overall_conv_ratio)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ) : null}
      <section aria-labelledby="saved-funnels-title">
        <h2 id="saved-funnels-title">Saved funnels</h2>
        <ul>
          {(list.value ?? []).map((f) => (
            <li key={f.funnel_id}>
              <Link href={`/funnels?funnel=${f.funnel_id}`}>{f.name}</Link>
            </li>
          ))}
        </ul>
        {list.value && !list.value.length ? <p className="muted">No saved funnel yet.</p> : null}
      </section>
    </>
  );
}
