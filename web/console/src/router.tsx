import { AnchorHTMLAttributes, MouseEvent, useSyncExternalStore } from 'react';

/** The console's pages: each at its own path, so a link can be shared. */
export const PAGES = [
  { path: '/events', title: 'Events' },
  { path: '/insights', title: 'Insights' },
  { path: '/funnels', title: 'Funnels' },
  { path: '/boards', title: 'Boards' },
  { path: '/flows', title: 'Flows' },
  { path: '/retention', title: 'Retention' },
  { path: '/cohorts', title: 'Cohorts' },
  { path: '/alerts', title: 'Alerts' },
  { path: '/profiles', title: 'Profiles' },
  { path: '/dictionary', title: 'Dictionary' },
  { path: '/settings', title: 'Settings' },
] as const;

export type PagePath = (typeof PAGES)[number]['path'];

const listeners = new Set<() => void>();

export function navigate(to: string, { replace = false } = {}): void {
  if (replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  listeners.forEach((listener) => listener());
}

function subscribe(onChange: () => void): () => void {
  listeners.add(onChange);
  window.addEventListener('popstate', onChange);
  return () => {
    listeners.delete(onChange);
    window.removeEventListener('popstate', onChange);
  };
}

/**
 * The current location (path and query), re-rendered on navigation and the back button. Through
 * useSyncExternalStore, a navigation made before this component's subscription (a child's redirect in
 * the same commit, as right after sign-in) is still seen: the console's first screen stayed blank.
 */
export function useLocation(): URL {
  return new URL(useSyncExternalStore(subscribe, () => window.location.href));
}

/** A real link (it opens in a new tab, copies, reads out) that navigates in place on a plain click. */
export function Link({ href, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(href);
  };
  return <a href={href} onClick={onClick} {...rest} />;
}
