import { ROLE_MATRIX, RouteAccess } from './role-matrix';
import { ROLES } from './roles';

const SCHEME_NOTE: Record<RouteAccess['scheme'], string> = {
  project: 'Basic: service account + project id, or project secret (acts as admin)',
  organization: 'Basic: service account of the organization (organization role)',
  account: 'Basic: any service account',
  bearer: 'Bearer OAuth token + `token` (project token)',
  import: 'Basic: project secret or token, or service account + `project_id`',
  'payload-token': 'project token in the payload',
  'signed-link': 'an expiring link signed by the platform',
  public: 'none',
};

/** The role matrix as docs/roles.md shows it: the owning service, and ✓ where a role may call the endpoint. */
export function roleMatrixMarkdown(): string {
  const header = `| Endpoint | Service | Credentials | ${ROLES.join(' | ')} |\n|---|---|---|${ROLES.map(() => '---').join('|')}|`;
  const rows = ROLE_MATRIX.filter((r) => r.scheme !== 'public').map((r) => {
    const cells = ROLES.map((role) => (!r.role || ROLES.indexOf(role) <= ROLES.indexOf(r.role) ? '✓' : ''));
    const pending = r.served === false ? ' (not served yet)' : '';
    return `| \`${r.method} ${r.path}\`${pending} | ${r.service} | ${SCHEME_NOTE[r.scheme]} | ${cells.join(' | ')} |`;
  });
  return [header, ...rows].join('\n');
}
