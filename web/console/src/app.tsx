import { useCallback, useEffect, useState } from 'react';
import { forgetCredentials, readApi, setCredentials } from './api/http';
import { clearSession, loadSession, saveSession, Session } from './api/session';
import { ErrorNote, Loading, PageErrorBoundary } from './components';
import { BoardsPage } from './pages/boards';
import { AlertsPage } from './pages/alerts';
import { CohortsPage } from './pages/cohorts';
import { DictionaryPage } from './pages/dictionary';
import { EventsPage } from './pages/events';
import { FlowsPage } from './pages/flows';
import { FunnelsPage } from './pages/funnels';
import { InsightsPage } from './pages/insights';
import { ProfilesPage } from './pages/profiles';
import { RetentionPage } from './pages/retention';
import { SettingsPage } from './pages/settings';
import { SHARED_BOARD_PAGE, SharedBoardPage } from './pages/shared-board';
import { ConsoleContext, ConsoleState } from './project';
import { Link, navigate, PAGES, useLocation } from './router';
import { readSignedInAccount, SignedInAccount, SignIn } from './sign-in';

const PAGE_COMPONENTS: Record<string, () => React.JSX.Element> = {
  '/events': EventsPage,
  '/insights': InsightsPage,
  '/funnels': FunnelsPage,
  '/boards': BoardsPage,
  '/flows': FlowsPage,
  '/retention': RetentionPage,
  '/cohorts': CohortsPage,
  '/alerts': AlertsPage,
  '/profiles': ProfilesPage,
  '/dictionary': DictionaryPage,
  '/settings': SettingsPage,
};

export function App() {
  const location = useLocation();
  const [session, setSession] = useState<Session | undefined>(() => {
    const saved = loadSession();
    if (saved) setCredentials(saved.username, saved.secret);
    return saved;
  });
  // What sign-in already read, so the signed-in view does not read it again.
  const [signedIn, setSignedIn] = useState<SignedInAccount>();
  const signOut = useCallback(() => {
    clearSession();
    forgetCredentials();
    setSession(undefined);
    setSignedIn(undefined);
  }, []);
  const onSignedIn = useCallback((next: Session, account: SignedInAccount) => {
    setSignedIn(account);
    setSession(next);
  }, []);
  // A project switch reads the account again (sign-in's copy is only for the first view).
  const onSwitch = useCallback((next: Session) => {
    setSignedIn(undefined);
    setSession(next);
  }, []);
  // A shared board's page needs no account, and shows nothing of the signed-in console.
  if (location.pathname.replace(/\/+$/, '') === SHARED_BOARD_PAGE) return <SharedBoardPage />;
  if (!session) return <SignIn onSignedIn={onSignedIn} />;
  const known = signedIn?.project.id === session.projectId ? signedIn : undefined;
  return (
    <SignedIn
      key={`${session.username}:${session.projectId}`}
      session={session}
      known={known}
      onSession={onSwitch}
      onSignOut={signOut}
    />
  );
}

interface SignedInProps {
  session: Session;
  /** The account as sign-in read it; absent after a reload or a project switch. */
  known?: SignedInAccount;
  onSession(s: Session): void;
  onSignOut(): void;
}

function SignedIn({ session, known, onSession, onSignOut }: SignedInProps) {
  const location = useLocation();
  const [loaded, setLoaded] = useState<SignedInAccount | undefined>(known);
  const [error, setError] = useState<unknown>();
  const [empty, setEmpty] = useState(false);
  const [emptyTick, setEmptyTick] = useState(0);

  useEffect(() => {
    if (!known) readSignedInAccount(session.username, session.projectId).then(setLoaded, setError);
  }, [session, known]);

  useEffect(() => {
    readApi<string[]>('/api/query/events/names', { project_id: session.projectId, limit: 1 }).then(
      (names) => setEmpty(names.length === 0),
      () => setEmpty(false),
    );
  }, [session, emptyTick]);

  if (error) {
    return (
      <main className="sign-in">
        <ErrorNote error={error} />
        <button onClick={onSignOut}>Sign in again</button>
      </main>
    );
  }
  if (!loaded) return <Loading what="the project" />;

  const context: ConsoleContext = {
    project: loaded.project,
    account: {
      username: session.username,
      role: loaded.me?.service_account.role ?? 'admin',
      organizationId: loaded.me?.organization.id,
    },
    empty,
    refreshEmpty: () => setEmptyTick((n) => n + 1),
  };
  const path = location.pathname.replace(/\/+$/, '') || '/';
  if (path === '/') return <Redirect to="/events" />;
  const Page = PAGE_COMPONENTS[path];
  const projects = loaded.me?.projects ?? [];

  return (
    <ConsoleState.Provider value={context}>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <strong className="brand">Analytics</strong>
        {projects.length > 1 ? (
          <label className="picker">
            <span>Project</span>
            <select value={session.projectId} onChange={(e) => switchProject(Number(e.target.value))}>
              {projects.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name} ({p.id})
                </option>
              ))}
            </select>
          </label>
        ) : (
          <span>
            Project <strong>{loaded.project.name}</strong> ({loaded.project.id})
          </span>
        )}
        <span className="region" aria-label={`Data region ${loaded.project.region}`}>
          Region {loaded.project.region}
        </span>
        <span className="muted">{session.username || 'project secret'}</span>
        <button onClick={onSignOut}>Sign out</button>
      </header>
      <nav aria-label="Pages" className="pages">
        <ul>
          {PAGES.map((p) => (
            <li key={p.path}>
              <Link href={p.path} aria-current={p.path === path ? 'page' : undefined}>
                {p.title}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" tabIndex={-1}>
        <PageErrorBoundary key={path}>{Page ? <Page /> : <NotFound path={path} />}</PageErrorBoundary>
      </main>
    </ConsoleState.Provider>
  );

  function switchProject(projectId: number) {
    const next = { ...session, projectId };
    saveSession(next);
    onSession(next);
  }
}

function NotFound({ path }: { path: string }) {
  return (
    <>
      <h1>No page at {path}</h1>
      <p>
        Pick one from the list above, or go to <Link href="/events">Events</Link>.
      </p>
    </>
  );
}

/** The console's root opens the live events. */
function Redirect({ to }: { to: string }) {
  useEffect(() => navigate(to, { replace: true }), [to]);
  return null;
}
