import { Component, ReactNode, useEffect, useRef, useState } from 'react';
import { ApiError } from './api/http';
import { useConsole } from './project';
import { Link } from './router';

/** An API failure in words, announced to screen readers. */
export function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null;
  const text = error instanceof ApiError || error instanceof Error ? error.message : String(error);
  return (
    <p className="error" role="alert">
      {text}
    </p>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p className="muted" role="status">
      Loading {what}…
    </p>
  );
}

/** The first step of an empty project: send one event with curl or the browser SDK, with this project's token. */
export function FirstStep() {
  const { project, empty } = useConsole();
  const origin = window.location.origin;
  const curl = `curl -s '${origin}/track' --data-urlencode 'data=[{"event":"Signed up","properties":{"token":"${project.token}","distinct_id":"user-1","plan":"free"}}]'`;
  const sdk = `<script src="https://cdn.mxpnl.com/libs/mixpanel-2-latest.min.js"></script>
<script>
  mixpanel.init('${project.token}', { api_host: '${origin}' });
  mixpanel.track('Signed up', { plan: 'free' });
</script>`;
  return (
    <section className="first-step" aria-labelledby="first-step-title">
      <h2 id="first-step-title">{empty ? 'Send your first event' : 'Send an event'}</h2>
      <p>
        {empty ? (
          <>
            Project <strong>{project.name}</strong> has no events yet.{' '}
          </>
        ) : null}
        Send one from a terminal, or from a web page with the browser SDK; it shows up on{' '}
        <Link href="/events">Events</Link> within seconds.
      </p>
      <h3>curl</h3>
      <pre tabIndex={0}>{curl}</pre>
      <h3>Browser SDK</h3>
      <pre tabIndex={0}>{sdk}</pre>
      <p className="muted">
        The project token <code>{project.token}</code> may only send data; it cannot read anything.
      </p>
    </section>
  );
}

/** Loads data for a page: the value, the failure in words, and a way to run it again. */
export function useLoad<T>(
  load: () => Promise<T>,
  deps: unknown[],
): { value?: T; error?: unknown; loading: boolean; reload(): void } {
  const [state, setState] = useState<{ value?: T; error?: unknown; loading: boolean }>({ loading: true });
  const [tick, setTick] = useState(0);
  const current = useRef(0);
  useEffect(() => {
    const run = ++current.current;
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (value) => run === current.current && setState({ value, loading: false }),
      (error: unknown) => run === current.current && setState({ error, loading: false }),
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, tick]);
  return { ...state, reload: () => setTick((n) => n + 1) };
}

export function Field({ label, children, hint }: { label: string; children: ReactNode; hint?: string }) {
  return (
    <label className="field">
      <span>{label}</span>
      {children}
      {hint ? <small className="muted">{hint}</small> : null}
    </label>
  );
}

/** The From and To days of a report (inputs `from_date` and `to_date`). */
export function DateRangeFields({ from, to }: { from: string; to: string }) {
  return (
    <>
      <Field label="From">
        <input name="from_date" type="date" defaultValue={from} />
      </Field>
      <Field label="To">
        <input name="to_date" type="date" defaultValue={to} />
      </Field>
    </>
  );
}

export function PageTitle({ children }: { children: ReactNode }) {
  useEffect(() => {
    document.title = `${typeof children === 'string' ? children : 'Console'} · Analytics`;
  }, [children]);
  return <h1 id="page-title">{children}</h1>;
}

/** A page that throws while rendering says so in words instead of leaving a blank screen. */
export class PageErrorBoundary extends Component<{ children: ReactNode }, { error?: Error }> {
  override state: { error?: Error } = {};

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <div role="alert" className="error">
        <p>This page failed to show: {this.state.error.message}</p>
        <button onClick={() => window.location.reload()}>Reload</button>
      </div>
    );
  }
}
