import { FormEvent, useState } from 'react';
import { readApi } from '../api/http';
import { DateRangeFields, ErrorNote, Field, FirstStep, PageTitle, useLoad } from '../components';
import { FlowChart, FlowPath } from '../flow-chart';
import { daysAgo } from '../days';
import { useConsole } from '../project';

interface FlowsResult {
  event: string;
  direction: 'after' | 'before';
  people: number;
  paths: FlowPath[];
  other: { paths: number; count: number };
  drop_off: { step: number; reached: number; dropped: number }[];
}

interface Query {
  event: string;
  direction: 'after' | 'before';
  steps: string;
  from_date: string;
  to_date: string;
  where: string;
}

const percent = (part: number, whole: number) => (whole ? `${Math.round((part / whole) * 100)} %` : '—');

/** Flows: what people do after (or before) an event, as a Sankey diagram, the paths and the drop-off by step. */
export function FlowsPage() {
  const { project, empty } = useConsole();
  const [query, setQuery] = useState<Query>({
    event: '',
    direction: 'after',
    steps: '3',
    from_date: daysAgo(13, project.timezone),
    to_date: daysAgo(0, project.timezone),
    where: '',
  });
  const names = useLoad(
    () => readApi<string[]>('/api/query/events/names', { project_id: project.id, limit: 20 }),
    [project.id],
  );
  // The most common event until the user picks another: the page answers on arrival.
  const anchor = query.event || names.value?.find((n) => !n.startsWith('$')) || names.value?.[0] || '';
  const result = useLoad(
    async () =>
      anchor
        ? readApi<FlowsResult>('/api/query/flows', {
            project_id: project.id,
            ...query,
            event: anchor,
            where: query.where || undefined,
            limit: 20,
          })
        : undefined,
    [project.id, query, anchor],
  );

  function apply(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setQuery({
      event: String(form.get('event') ?? '').trim(),
      direction: form.get('direction') === 'before' ? 'before' : 'after',
      steps: String(form.get('steps')),
      from_date: String(form.get('from_date')),
      to_date: String(form.get('to_date')),
      where: String(form.get('where') ?? '').trim(),
    });
  }

  const flows = result.value;
  return (
    <>
      <PageTitle>Flows</PageTitle>
      {empty ? <FirstStep /> : null}
      <form className="filters" onSubmit={apply} aria-label="Flows query">
        <Field label="Anchor event">
          <input name="event" key={anchor} defaultValue={anchor} list="flow-event-names" />
          <datalist id="flow-event-names">
            {(names.value ?? []).map((n) => (
              <option key={n} value={n} />
            ))}
          </datalist>
        </Field>
        <Field label="Direction">
          <select name="direction" defaultValue={query.direction}>
            <option value="after">after it</option>
            <option value="before">before it</option>
          </select>
        </Field>
        <Field label="Steps">
          <select name="steps" defaultValue={query.steps}>
            {['1', '2', '3', '4', '5'].map((n) => (
              <option key={n}>{n}</option>
            ))}
          </select>
        </Field>
        <DateRangeFields from={query.from_date} to={query.to_date} />
        <Field label="Where" hint="Filters the anchor event only">
          <input name="where" defaultValue={query.where} placeholder='properties["plan"] == "pro"' />
        </Field>
        <button type="submit">Run</button>
      </form>
      <ErrorNote error={result.error ?? names.error} />
      {result.loading ? <p role="status">Running…</p> : null}
      {flows && flows.people ? (
        <>
          <FlowChart
            paths={flows.paths}
            description={`The ${flows.paths.length} most taken paths ${flows.direction} ${flows.event}, as a Sankey diagram`}
          />
          <table aria-label="Drop-off by step">
            <thead>
              <tr>
                <th scope="col">Step {flows.direction} the anchor</th>
                <th scope="col">Reached</th>
                <th scope="col">Dropped</th>
              </tr>
            </thead>
            <tbody>
              <tr>
                <th scope="row">{flows.event}</th>
                <td>{flows.people}</td>
                <td />
              </tr>
              {flows.drop_off.map((s) => (
                <tr key={s.step}>
                  <th scope="row">{s.step}</th>
                  <td>
                    {s.reached} ({percent(s.reached, flows.people)})
                  </td>
                  <td>{s.dropped}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <table aria-label="Paths">
            <thead>
              <tr>
                <th scope="col">Path</th>
                <th scope="col">People</th>
              </tr>
            </thead>
            <tbody>
              {flows.paths.map((p) => (
                <tr key={p.steps.join('\u0000')}>
                  <td>{p.steps.join(' → ')}</td>
                  <td>
                    {p.count} ({percent(p.count, flows.people)})
                  </td>
                </tr>
              ))}
              {flows.other.paths ? (
                <tr>
                  <td className="muted">{flows.other.paths} other paths</td>
                  <td>{flows.other.count}</td>
                </tr>
              ) : null}
            </tbody>
          </table>
        </>
      ) : flows ? (
        <p className="muted">Nobody did {flows.event} in this range.</p>
      ) : null}
    </>
  );
}
