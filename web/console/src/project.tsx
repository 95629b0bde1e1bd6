import { createContext, useContext } from 'react';

/** The project the console shows, as GET /api/app/projects/{id} answers it. */
export interface Project {
  id: number;
  organization_id: number;
  name: string;
  token: string;
  region: string;
  /** The IANA zone the reports' days are cut in (docs/queries.md, "Time zone"). */
  timezone?: string;
}

export interface Account {
  /** Empty for a project secret. */
  username: string;
  /** Organization role of a service account; `admin` for a project secret (on its project only). */
  role: string;
  organizationId?: number;
}

export interface ConsoleContext {
  project: Project;
  account: Account;
  /** No event in the last 31 days: pages show the first step instead of empty charts. */
  empty: boolean;
  refreshEmpty(): void;
}

export const ConsoleState = createContext<ConsoleContext | undefined>(undefined);

export function useConsole(): ConsoleContext {
  const value = useContext(ConsoleState);
  if (!value) throw new Error('useConsole outside the signed-in console');
  return value;
}

/** A UTC day: the raw export and the usage report keep UTC days whatever the project's zone. */
export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}
