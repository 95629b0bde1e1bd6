import { sqlMigration } from '../postgres-migration';

/**
 * The project's identity merge mode (docs/identity.md). Projects that existed before it keep
 * `original` (their SDKs' `$identify`/`$create_alias` already mean merges there, as Mixpanel kept
 * its older projects on the Original API); projects created from now on get `simplified`.
 */
export const identityMerge = sqlMigration(8, 'identity_merge', [
  `alter table projects add column if not exists identity_merge text not null default 'original'
    check (identity_merge in ('simplified', 'original', 'disabled'))`,
  `alter table projects alter column identity_merge set default 'simplified'`,
]);
