import { join } from 'node:path';
import { REPO_ROOT } from './cruise-imports';
import { scopeCreatorsOutside } from './tenancy-checks';

/**
 * The files that may create a ProjectScope (`projectScope` of @analytics/tenancy): where a project
 * is established as the one a piece of work acts on. Everything else is given a scope. No file
 * casts to ProjectScope. Specs and test harnesses are not checked: they make the scopes they test with.
 */
export const SCOPE_CREATORS = [
  // Authentication: a guard established the request's access to the project (ProjectAccess.scope).
  'libs/auth/src/project-access.ts',
  // The ingest gateway: /track names each event's project by its token, /import by the secret or account the controller checked.
  'libs/ingest/src/ingest.service.ts',
  // The profile gateway: /engage and /groups name each update's project by its token.
  'libs/profiles/src/profile-ingest.service.ts',
  // dlq:replay's screen: each dead letter names the project the gateway authenticated when it first took it.
  'libs/erasures/src/deletion-screen.ts',
  // Jobs that run for a stored row, which names the project: a compliance job (created by an authenticated
  // request), a pipeline's windows, a warehouse import's runs and its deletion.
  'libs/compliance/src/compliance.worker.ts',
  'libs/pipelines/src/pipeline-runner.ts',
  'libs/warehouse-imports/src/warehouse-imports.worker.ts',
  'libs/warehouse-imports/src/import-runner.ts',
  // The retention sweep: a daily job over the stored projects that have a retention.
  'libs/retention/src/retention-sweeper.ts',
  // The alerts' checks: jobs over stored alert rows, each naming its project.
  'libs/alerts/src/alert-sweep.ts',
  // The identity writer: links the gateway authenticated, each naming its project.
  'libs/identity/src/identity-writer.service.ts',
  // The profile writer: updates the gateway authenticated, each naming its project.
  'libs/profiles/src/by-project.ts',
  // A shared board's view: the link's signature, checked against the stored board, establishes access to its project.
  'libs/boards/src/shared-boards.service.ts',
];

const FIXTURES = join(__dirname, 'tenancy-fixtures');

describe('project scopes', () => {
  it('are created only by the files on the list, in the fixture tree', () => {
    expect(scopeCreatorsOutside(FIXTURES, ['libs/auth/src/project-access.ts'])).toEqual([
      'apps/api/src/main.ts: takes all of @analytics/tenancy',
      'libs/rogue/src/forged-scope.ts: casts to ProjectScope',
      'libs/rogue/src/loads-tenancy.ts: loads @analytics/tenancy dynamically',
      'libs/rogue/src/rogue.repository.ts: imports projectScope',
      'libs/rogue/src/whole-lib.ts: takes all of @analytics/tenancy',
    ]);
  });

  it('are created only by the files on the list, in the repository', () => {
    expect(scopeCreatorsOutside(REPO_ROOT, SCOPE_CREATORS)).toEqual([]);
  });
});
