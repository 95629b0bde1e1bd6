import { FormEvent, useState } from 'react';
import { serviceAccountsControllerCreate, serviceAccountsControllerList } from '../api/generated';
import { results } from '../api/http';
import { ErrorNote, Field, FirstStep, PageTitle, useLoad } from '../components';
import { useConsole } from '../project';
import { TimeZoneForm } from './time-zone-form';
import { UsageSection } from './usage';

interface ServiceAccount {
  id: number;
  username: string;
  role?: string;
  last_used: string | null;
  expires: string | null;
  created: string;
  token?: string;
}

/** Settings: the project's token, time zone, usage and data retention, and first step; service accounts for organization owners and admins (the secret shown once). */
export function SettingsPage() {
  const { project, account } = useConsole();
  const manages =
    Boolean(account.username) &&
    (account.role === 'owner' || account.role === 'admin') &&
    account.organizationId !== undefined;
  const [created, setCreated] = useState<ServiceAccount>();
  const [error, setError] = useState<unknown>();
  const [tick, setTick] = useState(0);
  const organizationId = account.organizationId ?? 0;
  const accounts = useLoad(
    async () =>
      manages ? results<ServiceAccount[]>(serviceAccountsControllerList({ path: { organizationId } })) : undefined,
    [manages, organizationId, tick],
  );

  async function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const username = String(form.get('new_username') ?? '').trim();
    const role = String(form.get('role'));
    setError(undefined);
    setCreated(undefined);
    if (!username) return setError(new Error('Give the service account a name, e.g. etl.'));
    try {
      const body = { username, role, projects: [{ id: project.id, role }] };
      setCreated(
        await results<ServiceAccount>(
          serviceAccountsControllerCreate({ path: { organizationId }, body: body as never }),
        ),
      );
      setTick((n) => n + 1);
      event.currentTarget?.reset();
    } catch (failure) {
      setError(failure);
    }
  }

  return (
    <>
      <PageTitle>Settings</PageTitle>
      <section aria-labelledby="project-title">
        <h2 id="project-title">Project</h2>
        <dl className="facts">
          <dt>Name</dt>
          <dd>{project.name}</dd>
          <dt>Id</dt>
          <dd>{project.id}</dd>
          <dt>Region</dt>
          <dd>{project.region}</dd>
          <dt>Token (sends data only)</dt>
          <dd>
            <code>{project.token}</code>
          </dd>
        </dl>
        <TimeZoneForm />
      </section>
      <UsageSection />
      <FirstStep />
      <section aria-labelledby="accounts-title">
        <h2 id="accounts-title">Service accounts</h2>
        {!manages ? (
          <p>
            Service accounts are managed by the organization&apos;s owners and admins: sign in with such a service
            account to see and create them.
          </p>
        ) : (
          <>
            <table aria-label="Service accounts">
              <thead>
                <tr>
                  <th scope="col">Username</th>
                  <th scope="col">Role</th>
                  <th scope="col">Last used</th>
                  <th scope="col">Expires</th>
                </tr>
              </thead>
              <tbody>
                {(accounts.value ?? []).map((a) => (
                  <tr key={a.id}>
                    <td>{a.username}</td>
                    <td>{a.role ?? ''}</td>
                    <td>{a.last_used ?? 'never'}</td>
                    <td>{a.expires ?? 'never'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <form className="filters" onSubmit={create} aria-label="Create a service account">
              <Field label="New service account name">
                <input name="new_username" />
              </Field>
              <Field label="Role on this project">
                <select name="role" defaultValue="analyst">
                  {['owner', 'admin', 'analyst', 'consumer'].map((r) => (
                    <option key={r}>{r}</option>
                  ))}
                </select>
              </Field>
              <button type="submit">Create</button>
            </form>
            {created ? (
              <div className="notice" role="status">
                <p>
                  Created <strong>{created.username}</strong>. Its secret is shown this once; copy it now:
                </p>
                <pre tabIndex={0}>{created.token}</pre>
              </div>
            ) : null}
          </>
        )}
        <ErrorNote error={error ?? accounts.error} />
      </section>
    </>
  );
}
