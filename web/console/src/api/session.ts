/** What sign-in keeps for this browser tab (session storage: gone when the tab closes). */
export interface Session {
  /** Empty for a project secret. */
  username: string;
  secret: string;
  projectId: number;
}

const KEY = 'analytics-console-session';

export function loadSession(): Session | undefined {
  try {
    const raw = sessionStorage.getItem(KEY);
    if (!raw) return undefined;
    const value = JSON.parse(raw) as Partial<Session>;
    if (typeof value.secret !== 'string' || typeof value.projectId !== 'number') return undefined;
    return { username: value.username ?? '', secret: value.secret, projectId: value.projectId };
  } catch {
    return undefined;
  }
}

export function saveSession(session: Session): void {
  sessionStorage.setItem(KEY, JSON.stringify(session));
}

export function clearSession(): void {
  sessionStorage.removeItem(KEY);
}

/** HTTP Basic as the API takes it: a service account's username and secret, or the project secret with an empty password. */
export function basicAuthorization(username: string, secret: string): string {
  const pair = username ? `${username}:${secret}` : `${secret}:`;
  return `Basic ${btoa(String.fromCharCode(...new TextEncoder().encode(pair)))}`;
}
