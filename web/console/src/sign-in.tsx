import { FormEvent, useState } from 'react';
import { meControllerMe, projectControllerGet } from './api/generated';
import { ApiError, results, setCredentials } from './api/http';
import { saveSession, Session } from './api/session';
import { ErrorNote, Field } from './components';
import { Project } from './project';

export interface MeAnswer {
  service_account: { id: number; username: string; role: string };
  organization: { id: number; name: string };
  projects: (Project & { role: string })[];
}

/** What the console reads once on sign-in: the project, and for a service account its `/me`. */
export interface SignedInAccount {
  project: Project;
  me?: MeAnswer;
}

/** `/me` holds every project the account may use, so a service account needs no second read. */
export async function readSignedInAccount(username: string, projectId: number): Promise<SignedInAccount> {
  if (!username) return { project: await results<Project>(projectControllerGet({ path: { projectId } })) };
  const me = await results<MeAnswer>(meControllerMe());
  const project = me.projects.find((p) => p.id === projectId);
  if (!project) throw new ApiError(`This service account has no role on project ${projectId}.`, 403);
  return { project, me };
}

/**
 * Signs in with a service account (username and secret) or a project secret (empty username; the
 * API tells a project secret nothing about its project, so its id is asked for).
 */
export function SignIn({ onSignedIn }: { onSignedIn(session: Session, account: SignedInAccount): void }) {
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const username = String(form.get('username') ?? '').trim();
    const secret = String(form.get('secret') ?? '');
    const projectField = String(form.get('project_id') ?? '').trim();
    setError(undefined);
    if (!secret)
      return setError(
        new Error('Enter a secret: a service account secret, or the project secret with an empty username.'),
      );
    if (projectField && !/^\d+$/.test(projectField))
      return setError(new Error('The project id is a number, such as 1.'));
    if (!username && !projectField)
      return setError(
        new Error('With a project secret (empty username), enter the project id too: npm start prints it.'),
      );
    setBusy(true);
    try {
      setCredentials(username, secret);
      let account: SignedInAccount;
      if (username && !projectField) {
        const me = await results<MeAnswer>(meControllerMe());
        if (!me.projects.length)
          throw new ApiError('This service account has no project yet: an organization admin can add it to one.', 403);
        account = { project: me.projects[0], me };
      } else {
        account = await readSignedInAccount(username, Number(projectField));
      }
      const session = { username, secret, projectId: account.project.id };
      saveSession(session);
      onSignedIn(session, account);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="sign-in" aria-labelledby="sign-in-title">
      <h1 id="sign-in-title">Sign in to the analytics console</h1>
      <p className="muted">Use a service account, or the project secret with an empty username.</p>
      <form onSubmit={submit} noValidate>
        <Field label="Username" hint="A service account's username; empty for a project secret">
          <input name="username" autoComplete="username" />
        </Field>
        <Field label="Secret">
          <input name="secret" type="password" autoComplete="current-password" required />
        </Field>
        <Field label="Project id" hint="Needed with a project secret; optional with a service account">
          <input name="project_id" inputMode="numeric" />
        </Field>
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <ErrorNote error={error} />
    </main>
  );
}
