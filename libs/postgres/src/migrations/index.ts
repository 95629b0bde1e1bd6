import { PostgresMigration } from '../postgres-migration';
import { organizationsAndProjects } from './0001-organizations-and-projects';
import { accounts } from './0002-accounts';

/** Every Postgres migration, in version order. Append; never edit one that has shipped. */
export const POSTGRES_MIGRATIONS: readonly PostgresMigration[] = [organizationsAndProjects, accounts];
