import { FormEvent, useEffect, useMemo, useState } from 'react';
import { readApi } from '../api/http';
import { Chart, MAX_SERIES } from '../chart';
import { DateRangeFields, ErrorNote, Field, FirstStep, PageTitle, useLoad } from '../components';
import { daysAgo } from '../days';
import { useConsole } from '../project';
import { Link } from '../router';
import { RetentionResult, retentionCurves } from './retention-curve';
import { SavedRetentionList, useSavedRetention } from './retention-saved';

interface Query {
  from_date: string;
  to_date: string;
  born_event: string;
  event: string;
  retention_type: 'birth' | 'compounded';
  unit: 'day' | 'week' | 'month';
  /** Intervals after the birth one: the heat map's columns and the curve's points are one more. */
  interval_count: number;
}

/** Light blue to mid blue: black text keeps at least 7:1 on every shade. */
function shade(ratio: number): string {
  const mix = Math.max(0, Math.min(1, ratio));
  const channel = (from: number, to: number) => Math.round(from + (to - from) * mix);
  return `rgb(${channel(255, 147)}, ${channel(255, 180)}, ${channel(255, 245)})`;
}

/** Retention: the cohort table (birth or compounded) as a heat map. */
export function RetentionPage() {
  const { project, empty } = useConsole();
  const [query, setQuery] = useState<Query>({
    from_date: daysAgo(13, project.timezone),
    to_date: daysAgo(0, project.timezone),
    born_event: '',
    event: '',
    retention_type: 'birth',
    unit: 'day',
    interval_count: 7,
  });
  const saved = useSavedRetention(project.id);
  const [error, setError] = useState<unknown>();
  // A saved report opened by its link: its definition, over the page's days.
  useEffect(() => {
    const definition = saved.report.value;
    if (definition)
      setQuery((q) => ({
        ...q,
        retention_type: definition.retention_type,
        born_event: definition.born_event ?? '',
        event: definition.event ?? '',
        unit: definition.unit,
        interval_count: definition.interval_count,
      }));
  }, [saved.report.value]);
  // Birth retention needs a born event: the most common one until the user picks another.
  const names = useLoad(
    () => readApi<string[]>('/api/query/events/names', { project_id: project.id, limit: 20 }),
    [project.id],
  );
  const bornEvent = query.born_event || names.value?.find((n) => !n.startsWith('$')) || names.value?.[0] || '';
  const result = useLoad(
    async () =>
      query.retention_type === 'birth' && !bornEvent
        ? undefined
        : readApi<RetentionResult>('/api/query/retention', {
            project_id: project.id,
            ...query,
            born_event: query.retention_type === 'birth' ? bornEvent : undefined,
            event: query.event || undefined,
          }),
    [project.id, query, bornEvent],
  );

  async function apply(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const intent = ((event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null)?.value ?? 'run';
    const next: Query = {
      from_date: String(form.get('from_date')),
      to_date: String(form.get('to_date')),
      born_event: String(form.get('born_event') ?? '').trim(),
      event: String(form.get('event') ?? '').trim(),
      retention_type: form.get('retention_type') === 'compounded' ? 'compounded' : 'birth',
      unit: String(form.get('unit')) as Query['unit'],
      interval_count: Number(form.get('interval_count')) || 7,
    };
    setQuery(next);
    setError(undefined);
    if (intent !== 'save') return;
    const type = next.retention_type;
    const born = type === 'birth' ? next.born_event || bornEvent : undefined;
    const name = String(form.get('name') ?? '').trim() || `${type} retention${born ? ` of ${born}` : ''}`;
    const definition = { retention_type: type, unit: next.unit, interval_count: next.interval_count };
    await saved
      .save(name, {
        ...definition,
        ...(born ? { born_event: born } : {}),
        ...(next.event ? { event: next.event } : {}),
      })
      .catch(setError);
  }

  const rows = Object.entries(result.value ?? {}).sort(([a], [b]) => a.localeCompare(b));
  const width = Math.max(0, ...rows.map(([, r]) => r.counts.length));
  const curves = useMemo(
    () => (result.value ? retentionCurves(result.value, query.unit, MAX_SERIES - 1) : undefined),
    [result.value, query.unit],
  );
  const born = rows.some(([, r]) => r.first > 0);
  return (
    <>
      <PageTitle>Retention</PageTitle>
      {empty ? <FirstStep /> : null}
      {/* Drawn again with what a saved report (or a run) set: its fields are uncontrolled. */}
      <form
        key={`${saved.report.value?.id ?? 'new'}:${JSON.stringify(query)}`}
        className="filters"
        onSubmit={apply}
        aria-label="Retention query"
      >
        <Field label="Report name">
          <input name="name" defaultValue={saved.report.value?.name ?? ''} />
        </Field>
        <Field label="Type">
          <select name="retention_type" defaultValue={query.retention_type}>
            <option value="birth">birth (first time)</option>
            <option value="compounded">compounded (recurring)</option>
          </select>
        </Field>
        <Field label="Born event" hint="Birth retention: the event that puts a user in a cohort">
          <input name="born_event" key={bornEvent} defaultValue={bornEvent} list="event-names" />
          <datalist id="event-names">
            {(names.value ?? []).map((n) => (
              <option key={n} value={n} />
            ))}
          </datalist>
        </Field>
        <Field label="Returning event" hint="Empty for any event">
          <input name="event" defaultValue={query.event} />
        </Field>
        <DateRangeFields from={query.from_date} to={query.to_date} />
        <Field label="Unit">
          <select name="unit" defaultValue={query.unit}>
            {['day', 'week', 'month'].map((u) => (
              <option key={u}>{u}</option>
            ))}
          </select>
        </Field>
        <Field label="Intervals" hint="How many after the first">
          <input name="interval_count" type="number" min={1} max={90} defaultValue={query.interval_count} />
        </Field>
        <button type="submit" value="run">
          Run
        </button>
        <button type="submit" value="save">
          {saved.reportId ? 'Save changes' : 'Save report'}
        </button>
        {saved.reportId ? <Link href="/retention">New report</Link> : null}
      </form>
      <ErrorNote error={error ?? result.error ?? names.error ?? saved.report.error ?? saved.list.error} />
      {result.loading ? <p role="status">Running…</p> : null}
      {curves && born ? (
        <Chart
          kind="line"
          gaps
          suffix=" %"
          labels={curves.labels}
          series={curves.series}
          description={`Retention curve: the share of users back in each ${query.unit}, all cohorts and the newest`}
        />
      ) : null}
      {born ? (
        <div className="scroll" tabIndex={0} aria-label="Retention table, scrollable">
          <table className="heat" aria-label="Retention by cohort">
            <thead>
              <tr>
                <th scope="col">Cohort</th>
                <th scope="col">Users</th>
                {Array.from({ length: width }, (_, i) => (
                  <th scope="col" key={i}>
                    {query.unit} {i}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map(([date, row]) => (
                <tr key={date}>
                  <th scope="row">{date}</th>
                  <td>{row.first}</td>
                  {Array.from({ length: width }, (_, i) => {
                    const count = row.counts[i];
                    const ratio = row.first && count !== undefined ? count / row.first : 0;
                    return (
                      <td key={i} style={{ background: shade(ratio) }}>
                        {count === undefined ? '' : `${count} (${Math.round(ratio * 100)} %)`}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : result.value ? (
        <p className="muted">
          {query.retention_type === 'birth'
            ? `No one did ${bornEvent} for the first time from ${query.from_date} to ${query.to_date}: widen the dates, or pick another born event.`
            : `No one did ${query.event || 'any event'} from ${query.from_date} to ${query.to_date}: widen the dates, or pick another event.`}
        </p>
      ) : null}
      <SavedRetentionList reports={saved.list.value} />
    </>
  );
}
