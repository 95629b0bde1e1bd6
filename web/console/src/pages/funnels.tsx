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
import { daysAgo } from '../days';
import { EventPicker, PropertyOptions, useEventNames } from '../pickers';
import { useConsole } from '../project';
import { Link, navigate, useLocation } from '../router';
import { FunnelResult, totalsBySegment } from './funnel-totals';

/** What a funnel is, saved or not: the query API takes it as `params` before it is saved. */
interface FunnelDefinition {
  steps: { event: string }[];
  length: number;
  length_unit: string;
}
interface SavedFunnel extends FunnelDefinition {
  funnel_id: number;
  name: string;
}

const percent = (ratio: number) => `${(ratio * 100).toFixed(1)} %`;

/** Funnels: steps, a window, a date range and a breakdown, run as built (Run) or saved (and reopened by link). */
export function FunnelsPage() {
  const { project, empty } = useConsole();
  const location = useLocation();
  const funnelId = Number(location.searchParams.get('funnel')) || undefined;
  const [range, setRange] = useState({
    from: daysAgo(29, project.timezone),
    to: daysAgo(0, project.timezone),
    on: '',
  });
  /** A definition run as built, before (or without) saving it. */
  const [draft, setDraft] = useState<FunnelDefinition>();
  const [error, setError] = useState<unknown>();
  const [tick, setTick] = useState(0);
  const [stepsText, setStepsText] = useState<string>();
  // The breakdown offers the first step's properties, read when the steps field is left (not at every key).
  const [firstStep, setFirstStep] = useState<string>();
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
  // Another funnel opened (or this one saved): the form and the result show it as saved.
  useEffect(() => {
    setStepsText(undefined);
    setDraft(undefined);
  }, [funnel.value]);
  const shown = draft ?? funnel.value;
  const run = useLoad(
    async () =>
      shown
        ? readApi<FunnelResult>('/api/query/funnels', {
            project_id: project.id,
            ...(draft ? { params: JSON.stringify(draft) } : { funnel_id: funnel.value!.funnel_id }),
            from_date: range.from,
            to_date: range.to,
            on: range.on ? `properties[${JSON.stringify(range.on)}]` : undefined,
            limit: range.on ? MAX_SERIES : undefined,
          })
        : undefined,
    [funnel.value, draft, range],
  );
  const steps = stepsText ?? funnel.value?.steps.map((s) => s.event).join('\n') ?? '';
  const totals = useMemo(() => (run.value ? totalsBySegment(run.value) : undefined), [run.value]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const intent = ((event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null)?.value ?? 'run';
    const names = String(form.get('steps') ?? '')
      .split('\n')
      .map((s) => s.trim())
      .filter(Boolean);
    setError(undefined);
    if (names.length < 2) return setError(new Error('A funnel needs at least two steps: one event name per line.'));
    const definition: FunnelDefinition = {
      steps: names.map((e) => ({ event: e })),
      length: Number(form.get('length')) || 7,
      length_unit: String(form.get('length_unit')),
    };
    setRange({
      from: String(form.get('from_date')),
      to: String(form.get('to_date')),
      on: String(form.get('on') ?? '').trim(),
    });
    if (intent === 'run') return setDraft(definition);
    const body = { name: String(form.get('name') ?? '').trim() || names.join(' → '), ...definition };
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

  const segments = totals ? [...totals.entries()] : [];
  const overall = totals?.get('$overall') ?? segments[0]?.[1];
  const chartSeries: Series[] = segments.slice(0, MAX_SERIES).map(([segment, steps]) => ({
    name: segment === '$overall' ? 'All users' : segment,
    values: Object.fromEntries(steps.map((s, i) => [`${i + 1}. ${s.event}`, s.count])),
  }));
  const title = draft ? 'Unsaved funnel' : (funnel.value?.name ?? '');

  return (
    <>
      <PageTitle>Funnels</PageTitle>
      {empty ? <FirstStep /> : null}
      <form key={funnel.value?.funnel_id ?? 'new'} className="builder" onSubmit={submit} aria-label="Funnel definition">
        <Field label="Funnel name">
          <input name="name" defaultValue={funnel.value?.name ?? ''} />
        </Field>
        <Field label="Steps" hint="One event name per line, in order">
          <textarea
            name="steps"
            rows={4}
            value={steps}
            onChange={(e) => setStepsText(e.target.value)}
            onBlur={(e) => setFirstStep(e.target.value.split('\n')[0]?.trim() || undefined)}
            required
          />
        </Field>
        {/* A funnel may repeat a step's event (A → B → A), so a pick always adds a line. */}
        <EventPicker
          names={eventNames}
          onPick={(name) => {
            setStepsText(steps.trim() ? `${steps.trimEnd()}\n${name}` : name);
            if (!steps.trim()) setFirstStep(name);
          }}
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
        <DateRangeFields from={range.from} to={range.to} />
        <Field label="Breakdown property" hint="e.g. $browser; empty for none">
          <input name="on" list="funnel-properties" defaultValue={range.on} />
        </Field>
        <PropertyOptions
          id="funnel-properties"
          projectId={project.id}
          event={firstStep ?? funnel.value?.steps[0]?.event}
        />
        <button type="submit" value="run">
          Run
        </button>
        <button type="submit" value="save">
          {funnelId ? 'Save changes' : 'Save funnel'}
        </button>
        {funnelId ? <Link href="/funnels">New funnel</Link> : null}
      </form>
      <ErrorNote error={error ?? funnel.error ?? run.error ?? list.error} />
      {run.loading && shown ? <p role="status">Running the funnel…</p> : null}
      {!shown && !empty && !funnel.loading ? (
        <p className="muted">
          Pick two or more events above, in the order people do them, and press <strong>Run</strong>: the chart shows
          how many get from the first step to each next one. <strong>Save funnel</strong> keeps it for boards.
        </p>
      ) : null}
      {overall && shown ? (
        <section aria-labelledby="funnel-result-title">
          <h2 id="funnel-result-title">{title}</h2>
          {overall[0]?.count ? null : (
            <p className="muted">
              No one did {overall[0]?.event} from {range.from} to {range.to}: widen the dates, or start the funnel at
              another event.
            </p>
          )}
          <Chart
            kind="bar"
            labels={overall.map((s, i) => `${i + 1}. ${s.event}`)}
            series={chartSeries}
            description={`Conversion of ${title} by step`}
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
