import { AnchorHTMLAttributes, MouseEvent, useEffect, useState } from 'react';

/** The console's pages: each at its own path, so a link can be shared. */
export const PAGES = [
  { path: '/events', title: 'Events' },
  { path: '/insights', title: 'Insights' },
  { path: '/funnels', title: 'Funnels' },
  { path: '/retention', title: 'Retention' },
  { path: '/cohorts', title: 'Cohorts' },
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

/** The current location (path and query), re-rendered on navigation and the back button. */
export function useLocation(): URL {
  const [, setTick] = useState(0);
  useEffect(() => {
    const update = () => setTick((n) => n + 1);
    listeners.add(update);
    window.addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      window.removeEventListener('popstate', update);
    };
  }, []);
  return new URL(window.location.href);
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
