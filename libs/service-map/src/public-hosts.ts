/**
 * The spec's public hosts (its address placeholders) by the first label of our host names, and the
 * path prefixes each carries. The ingress must send every route of the role matrix, on each host
 * that carries it, to the route's owning service; a test checks that on the rendered manifests.
 */
export const PUBLIC_HOSTS = {
  /** `{base_url}`: management, compliance and query APIs (`/api/2.0/<query>` is the query API's older path). */
  api: ['/api/app', '/api/query', '/api/2.0', '/api/shared'],
  /** `{eu_base_url}`, `{in_base_url}`: data-residency variants of the query base. */
  eu: ['/api/query', '/api/2.0'],
  in: ['/api/query', '/api/2.0'],
  /** `{ingest_url}`: server-side SDKs use ingest., browser SDKs api-js; lookup tables are replaced on ingest. only. */
  ingest: ['/import', '/track', '/engage', '/groups', '/lookup-tables'],
  'api-js': ['/import', '/track', '/engage', '/groups'],
  /** `{data_url}`: raw export and pipelines. */
  data: ['/api/2.0/export', '/api/2.0/nessie'],
  /** `{export_url}`: the host of download links. */
  exports: ['/downloads'],
} as const satisfies Record<string, readonly string[]>;

export type PublicHost = keyof typeof PUBLIC_HOSTS;

const underPrefix = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);

/**
 * The hosts a client reaches this path on. Where a more specific prefix belongs to another host
 * (`/api/2.0/export` is the data host's), the base hosts do not carry it.
 */
export function publicHostsOf(path: string): PublicHost[] {
  const longest = (host: PublicHost) =>
    Math.max(-1, ...PUBLIC_HOSTS[host].filter((p) => underPrefix(path, p)).map((p) => p.length));
  const best = Math.max(...(Object.keys(PUBLIC_HOSTS) as PublicHost[]).map(longest));
  return best < 0 ? [] : (Object.keys(PUBLIC_HOSTS) as PublicHost[]).filter((host) => longest(host) === best);
}
