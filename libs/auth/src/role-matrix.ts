import { ServiceName } from '@analytics/config';
import { Role } from './roles';

/**
 * How an endpoint is reached:
 * - `project`: HTTP Basic (service account with `project_id`/`{projectId}`, or the project secret) and a role on the project;
 * - `organization`: a service account of `{organizationId}` with an organization role;
 * - `account`: any valid service account;
 * - `bearer`: an OAuth token plus `token=<project token>`, with a role on that project;
 * - `import`: the project secret or token as Basic username, or a service account (admin) with `project_id`;
 * - `payload-token`: the project token inside the payload (SDK ingestion);
 * - `signed-link`: an expiring link signed by the platform (downloads under the export host);
 * - `public`: operations endpoints, no credentials.
 */
export type AccessScheme =
  'project' | 'organization' | 'account' | 'bearer' | 'import' | 'payload-token' | 'signed-link' | 'public';

export interface RouteAccess {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: string;
  scheme: AccessScheme;
  /** The least role, for schemes that check one. */
  role?: Role;
  /** Built yet? Endpoints of the spec that are not yet served are listed so the matrix covers the whole API. */
  served?: false;
  /** The service that owns the route (the one the ingress sends it to); operations routes are served by every service. */
  service: ServiceName | 'every';
}

type UnownedRoute = Omit<RouteAccess, 'service'>;

const route = (
  method: RouteAccess['method'],
  path: string,
  scheme: AccessScheme,
  role?: Role,
  served?: false,
): UnownedRoute => ({ method, path, scheme, role, served });
const ownedBy = (service: RouteAccess['service'], routes: UnownedRoute[]): RouteAccess[] =>
  routes.map((r) => ({ ...r, service }));
const query = (method: RouteAccess['method'], path: string, served?: false) => [
  route(method, `/api/query${path}`, 'project', 'consumer', served),
  route(method, `/api/2.0${path}`, 'project', 'consumer', served),
];

/** Saved reports: analysts and above write, consumers read. */
const savedReport = (kind: string, id: string) => [
  route('GET', `/api/app/projects/:projectId/${kind}`, 'project', 'consumer'),
  route('POST', `/api/app/projects/:projectId/${kind}`, 'project', 'analyst'),
  route('GET', `/api/app/projects/:projectId/${kind}/${id}`, 'project', 'consumer'),
  route('PATCH', `/api/app/projects/:projectId/${kind}/${id}`, 'project', 'analyst'),
  route('DELETE', `/api/app/projects/:projectId/${kind}/${id}`, 'project', 'analyst'),
];

/**
 * What each role may do, endpoint by endpoint: the one table the guards' decorators must agree with
 * (a test walks every registered route against it) and that docs/roles.md shows.
 */
export const ROLE_MATRIX: readonly RouteAccess[] = [
  ...ownedBy('every', [
    route('GET', '/healthz', 'public'),
    route('GET', '/readyz', 'public'),
    route('GET', '/metrics', 'public'),
    route('GET', '/api/docs', 'public'),
    route('GET', '/api/docs/openapi.json', 'public'),
  ]),

  ...ownedBy('ingest', [
    route('POST', '/import', 'import', 'admin'),
    route('GET', '/import', 'import', 'admin'),
    route('GET', '/track', 'payload-token'),
    route('POST', '/track', 'payload-token'),
    route('GET', '/engage', 'payload-token'),
    route('POST', '/engage', 'payload-token'),
    route('GET', '/groups', 'payload-token'),
    route('POST', '/groups', 'payload-token'),
  ]),

  ...ownedBy('management', [
    route('GET', '/api/app/me', 'account'),
    route('POST', '/api/app/organizations', 'account', 'owner'),
    route('POST', '/api/app/backup', 'account', 'owner'),
    route('GET', '/api/app/organizations/:organizationId/service-accounts', 'organization', 'admin'),
    route('POST', '/api/app/organizations/:organizationId/service-accounts', 'organization', 'admin'),
    route('GET', '/api/app/organizations/:organizationId/service-accounts/:serviceAccountId', 'organization', 'admin'),
    route(
      'DELETE',
      '/api/app/organizations/:organizationId/service-accounts/:serviceAccountId',
      'organization',
      'admin',
    ),
    route('POST', '/api/app/organizations/:organizationId/service-accounts/add-to-project', 'organization', 'admin'),
    route(
      'POST',
      '/api/app/organizations/:organizationId/service-accounts/remove-from-project',
      'organization',
      'admin',
    ),
    route('GET', '/api/app/organizations/:organizationId/projects', 'organization', 'consumer'),
    route('POST', '/api/app/organizations/:organizationId/projects', 'organization', 'admin'),
    route('POST', '/api/app/organizations/:organizationId/oauth-tokens', 'organization', 'admin'),
    route('GET', '/api/app/projects/:projectId', 'project', 'consumer'),
    route('PATCH', '/api/app/projects/:projectId', 'project', 'admin'),
    route('POST', '/api/app/projects/:projectId/rotate-secret', 'project', 'admin'),
    route('GET', '/api/app/projects/:projectId/usage', 'project', 'consumer'),

    route('GET', '/api/app/projects/:projectId/group-keys', 'project', 'consumer'),
    route('POST', '/api/app/projects/:projectId/group-keys', 'project', 'admin'),
    route('DELETE', '/api/app/projects/:projectId/group-keys/:name', 'project', 'admin'),

    route('GET', '/api/app/projects/:projectId/annotations', 'project', 'consumer'),
    route('POST', '/api/app/projects/:projectId/annotations', 'project', 'analyst'),
    route('GET', '/api/app/projects/:projectId/annotations/:annotationId', 'project', 'consumer'),
    route('PATCH', '/api/app/projects/:projectId/annotations/:annotationId', 'project', 'analyst'),
    route('DELETE', '/api/app/projects/:projectId/annotations/:annotationId', 'project', 'analyst'),
    route('GET', '/api/app/projects/:projectId/annotations/tags', 'project', 'consumer'),
    // Lookup tables (libs/lookup-tables). The real API replaces them on the ingestion host: the ingress sends
    // that host's /lookup-tables here, so the gateway holds no 100 MB bodies and opens no ClickHouse.
    route('GET', '/lookup-tables', 'project', 'consumer'),
    route('PUT', '/lookup-tables/:id', 'project', 'admin'),
    route('GET', '/api/app/projects/:projectId/lookup-tables', 'project', 'consumer'),
    route('POST', '/api/app/projects/:projectId/lookup-tables', 'project', 'admin'),
    route('GET', '/api/app/projects/:projectId/lookup-tables/:tableId', 'project', 'consumer'),
    route('PATCH', '/api/app/projects/:projectId/lookup-tables/:tableId', 'project', 'admin'),
    route('DELETE', '/api/app/projects/:projectId/lookup-tables/:tableId', 'project', 'admin'),
    route('POST', '/api/app/projects/:projectId/annotations/tags', 'project', 'analyst'),
    route('GET', '/api/app/projects/:projectId/schemas', 'project', 'consumer'),
    route('POST', '/api/app/projects/:projectId/schemas', 'project', 'admin'),
    route('DELETE', '/api/app/projects/:projectId/schemas', 'project', 'admin'),
    route('GET', '/api/app/projects/:projectId/schemas/seen', 'project', 'consumer'),
    route('GET', '/api/app/projects/:projectId/schemas/:entityType', 'project', 'consumer'),
    route('DELETE', '/api/app/projects/:projectId/schemas/:entityType', 'project', 'admin'),
    route('GET', '/api/app/projects/:projectId/schemas/:entityType/:name', 'project', 'consumer'),
    route('POST', '/api/app/projects/:projectId/schemas/:entityType/:name', 'project', 'admin'),
    route('DELETE', '/api/app/projects/:projectId/schemas/:entityType/:name', 'project', 'admin'),
    route('GET', '/api/app/projects/:projectId/warehouse-sources', 'project', 'consumer'),
    route('POST', '/api/app/projects/:projectId/warehouse-sources', 'project', 'admin'),
    route('GET', '/api/app/projects/:projectId/warehouse-sources/:sourceId', 'project', 'consumer'),
    route('DELETE', '/api/app/projects/:projectId/warehouse-sources/:sourceId', 'project', 'admin'),
    route('POST', '/api/app/projects/:projectId/warehouse-sources/imports/event-stream', 'project', 'admin'),
    route('POST', '/api/app/projects/:projectId/warehouse-sources/imports/people', 'project', 'admin'),
    route('POST', '/api/app/projects/:projectId/warehouse-sources/imports/groups', 'project', 'admin'),
    route('GET', '/api/app/projects/:projectId/warehouse-sources/imports', 'project', 'consumer'),
    route('GET', '/api/app/projects/:projectId/warehouse-sources/imports/:importId', 'project', 'consumer'),
    route('PATCH', '/api/app/projects/:projectId/warehouse-sources/imports/:importId', 'project', 'admin'),
    route('DELETE', '/api/app/projects/:projectId/warehouse-sources/imports/:importId', 'project', 'admin'),
    route('GET', '/api/app/projects/:projectId/warehouse-sources/imports/:importId/history', 'project', 'consumer'),
    route('PUT', '/api/app/projects/:projectId/warehouse-sources/imports/:importId/manual-sync', 'project', 'admin'),
    ...savedReport('bookmarks', ':id'),
    ...savedReport('funnels', ':funnelId'),
    ...savedReport('cohorts', ':id'),
    ...savedReport('retention-reports', ':id'),
    ...savedReport('boards', ':boardId'),
    route('POST', '/api/app/projects/:projectId/boards/:boardId/share', 'project', 'analyst'),
    route('DELETE', '/api/app/projects/:projectId/boards/:boardId/share', 'project', 'analyst'),
    ...savedReport('alerts', ':alertId'),
    route('GET', '/api/app/projects/:projectId/alerts/:alertId/history', 'project', 'consumer'),
    route('POST', '/api/app/projects/:projectId/alerts/:alertId/test', 'project', 'analyst'),
  ]),

  ...ownedBy('compliance', [
    route('POST', '/api/app/data-retrievals/v3.0', 'bearer', 'admin'),
    route('GET', '/api/app/data-retrievals/v3.0/:trackingId', 'bearer', 'admin'),
    route('POST', '/api/app/data-deletions/v3.0', 'bearer', 'admin'),
    route('GET', '/api/app/data-deletions/v3.0/:trackingId', 'bearer', 'admin'),
    route('DELETE', '/api/app/data-deletions/v3.0/:trackingId', 'bearer', 'admin'),
  ]),

  ...ownedBy('export', [
    route('GET', '/api/2.0/export', 'project', 'consumer'),
    route('GET', '/downloads/*key', 'signed-link'),
    route('GET', '/api/2.0/nessie/pipeline/jobs', 'project', 'consumer'),
    route('GET', '/api/2.0/nessie/pipeline/status', 'project', 'consumer'),
    route('GET', '/api/2.0/nessie/pipeline/timeline', 'project', 'consumer'),
    route('POST', '/api/2.0/nessie/pipeline/create', 'project', 'admin'),
    route('POST', '/api/2.0/nessie/pipeline/pause', 'project', 'admin'),
    route('POST', '/api/2.0/nessie/pipeline/resume', 'project', 'admin'),
    route('POST', '/api/2.0/nessie/pipeline/cancel', 'project', 'admin'),
  ]),

  ...ownedBy('query', [
    ...query('GET', '/engage'),
    ...query('POST', '/engage'),
    ...query('GET', '/insights'),
    ...query('GET', '/funnels'),
    ...query('GET', '/funnels/list'),
    ...query('GET', '/retention'),
    ...query('GET', '/retention/addiction'),
    ...query('GET', '/cohorts/list'),
    ...query('POST', '/cohorts/list'),
    ...query('GET', '/segmentation'),
    ...query('GET', '/segmentation/numeric'),
    ...query('GET', '/segmentation/sum'),
    ...query('GET', '/segmentation/average'),
    ...query('GET', '/events'),
    ...query('GET', '/events/names'),
    ...query('GET', '/events/properties'),
    ...query('GET', '/events/properties/top'),
    ...query('GET', '/events/properties/values'),
    ...query('GET', '/engage/properties'),
    ...query('GET', '/engage/revenue'),
    ...query('POST', '/engage/revenue'),
    // The annotations' older read path, with the project from the credentials (libs/annotations).
    route('GET', '/api/2.0/annotations', 'project', 'consumer'),
    // A shared board: its signed link is the credential, and it reads that board's tiles only.
    route('GET', '/api/shared/boards/:token', 'signed-link'),
    ...query('GET', '/stream/query'),
    ...query('GET', '/flows'),
  ]),
];

/** The matrix entry for a registered route (Express path pattern), if any; the OpenAPI page's files are public. */
export function routeAccess(method: string, path: string): RouteAccess | undefined {
  if (method === 'GET' && (path.startsWith('/api/docs/') || path === '/api/docs-yaml'))
    return { ...route('GET', path, 'public'), service: 'every' };
  return ROLE_MATRIX.find((r) => r.method === method && r.path === path);
}
