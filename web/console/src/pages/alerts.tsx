import { FormEvent, useState } from 'react';
import { client } from '../api/generated/client.gen';
import { results } from '../api/http';
import { ErrorNote, Field, PageTitle, useLoad } from '../components';
import { useConsole } from '../project';

interface Alert {
  id: number;
  name: string;
  bookmark_id: number;
  rule: 'above' | 'below' | 'changed_by_percent';
  threshold: number;
  cadence: string;
  webhook_url: string;
  last_state: string;
  last_period: string | null;
}
interface Delivery {
  at: string;
  period: string | null;
  value: number | null;
  fired: boolean;
  test: boolean;
  attempt: number;
  http_status: number | null;
  error: string | null;
}
interface TestOutcome {
  delivered: boolean;
  http_status: number | null;
  error: string | null;
}

const RULES = { above: 'above', below: 'below', changed_by_percent: 'changes by more than (%)' };

/** The alerts API is not in the console's generated client yet: raw calls through the same client and envelope. */
const call = <T,>(method: 'get' | 'post', url: string, body?: unknown) =>
  results<T>(client[method]({ url, ...(body === undefined ? {} : { body }) }) as Promise<{ response?: Response }>);

/** Alerts: the project's alerts on saved insights reports, a form to add one, each one's history and test button. */
export function AlertsPage() {
  const { project } = useConsole();
  const base = `/api/app/projects/${project.id}/alerts`;
  const [open, setOpen] = useState<Alert>();
  const [note, setNote] = useState<string>();
  const [failure, setFailure] = useState<unknown>();
  const alerts = useLoad(() => call<Alert[]>('get', base), [project.id]);
  const reports = useLoad(
    () => call<{ id: number; name: string }[]>('get', `/api/app/projects/${project.id}/bookmarks`),
    [project.id],
  );
  const history = useLoad(
    async () => (open ? call<Delivery[]>('get', `${base}/${open.id}/history`) : undefined),
    [project.id, open, note],
  );

  const create = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setFailure(undefined);
    try {
      const created = await call<Alert & { signing_secret: string }>('post', base, {
        name: form.get('name'),
        bookmark_id: Number(form.get('bookmark_id')),
        rule: form.get('rule'),
        threshold: Number(form.get('threshold')),
        cadence: form.get('cadence'),
        webhook_url: form.get('webhook_url'),
      });
      setNote(`Alert "${created.name}" created. Its signing secret, shown only now: ${created.signing_secret}`);
      alerts.reload();
    } catch (error) {
      setFailure(error);
    }
  };
  const test = async (alert: Alert) => {
    setFailure(undefined);
    try {
      const outcome = await call<TestOutcome>('post', `${base}/${alert.id}/test`);
      setOpen(alert);
      setNote(
        outcome.delivered
          ? `Test delivery to ${alert.name}: delivered (HTTP ${outcome.http_status}).`
          : `Test delivery to ${alert.name}: failed (${outcome.error}).`,
      );
    } catch (error) {
      setFailure(error);
    }
  };

  return (
    <>
      <PageTitle>Alerts</PageTitle>
      <ErrorNote error={alerts.error ?? reports.error ?? history.error ?? failure} />
      {note ? <p role="status">{note}</p> : null}
      <table aria-label="Alerts">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Rule</th>
            <th scope="col">Cadence</th>
            <th scope="col">State</th>
            <th scope="col">Last period</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {(alerts.value ?? []).map((a) => (
            <tr key={a.id}>
              <td>{a.name}</td>
              <td>
                {RULES[a.rule]} {a.threshold}
              </td>
              <td>{a.cadence}</td>
              <td>{a.last_state}</td>
              <td>{a.last_period ?? '–'}</td>
              <td>
                <button onClick={() => setOpen(a)} aria-label={`Show the history of ${a.name}`}>
                  History
                </button>{' '}
                <button onClick={() => void test(a)} aria-label={`Send a test delivery for ${a.name}`}>
                  Test
                </button>
              </td>
            </tr>
          ))}
          {alerts.value && !alerts.value.length ? (
            <tr>
              <td colSpan={6}>No alert yet: add one on a saved insights report below.</td>
            </tr>
          ) : null}
        </tbody>
      </table>

      <form aria-label="New alert" onSubmit={(e) => void create(e)}>
        <h2>New alert</h2>
        <Field label="Name">
          <input name="name" required maxLength={255} />
        </Field>
        <Field label="Saved report">
          <select name="bookmark_id" required>
            {(reports.value ?? []).map((r) => (
              <option key={r.id} value={r.id}>
                {r.name}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Fires when the latest complete period is">
          <select name="rule">
            {Object.entries(RULES).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Threshold">
          <input name="threshold" type="number" step="any" required />
        </Field>
        <Field label="Checked">
          <select name="cadence">
            <option value="hourly">hourly</option>
            <option value="daily">daily</option>
          </select>
        </Field>
        <Field label="Webhook URL" hint="Receives a signed JSON POST (docs/alerts.md)">
          <input name="webhook_url" type="url" required />
        </Field>
        <button type="submit">Create alert</button>
      </form>

      {open ? (
        <section aria-labelledby="history-title">
          <h2 id="history-title">History of {open.name}</h2>
          <table aria-label={`History of ${open.name}`}>
            <thead>
              <tr>
                <th scope="col">When (UTC)</th>
                <th scope="col">Period</th>
                <th scope="col">Value</th>
                <th scope="col">Outcome</th>
              </tr>
            </thead>
            <tbody>
              {(history.value ?? []).map((d, i) => (
                <tr key={i}>
                  <td>{d.at}</td>
                  <td>{d.period ?? '–'}</td>
                  <td>{d.value ?? '–'}</td>
                  <td>
                    {d.test ? 'test' : d.fired ? 'fired' : 'checked'}
                    {d.attempt ? `, attempt ${d.attempt}: ${d.http_status ?? 'no answer'}` : ''}
                    {d.error ? ` (${d.error})` : ''}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ) : null}
    </>
  );
}
