import { AppConfig, ConfigError, RegionHost } from '@analytics/config';
import { DATA_REGIONS, Project } from '@analytics/projects';
import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { AccessDenied } from './access-denied';
import { AccessRequest, ProjectAccessGuard } from './project-access.guard';

/**
 * Why `host` must not answer the query API for `project`, if it must not: a host that
 * QUERY_REGION_HOSTS binds to a region serves only that region's projects, and the refusal names the
 * host that serves the project's. Hosts the setting does not name (internal names, localhost) serve all.
 */
export function regionRefusal(
  regionHosts: readonly RegionHost[],
  host: string,
  project: Pick<Project, 'id' | 'region'>,
): string | undefined {
  const requested = host.toLowerCase();
  const served = regionHosts.find((entry) => entry.host === requested);
  if (!served || served.region === project.region) return undefined;
  const home = regionHosts.find((entry) => entry.region === project.region);
  return home
    ? `project ${project.id} keeps its data in the ${project.region} region: send this query to ${home.host} (${requested} serves ${served.region} projects only)`
    : `project ${project.id} keeps its data in the ${project.region} region, which no query host serves (${requested} serves ${served.region} projects only)`;
}

/**
 * The query API's access (`{base_url}`, `{eu_base_url}`, `{in_base_url}` + /api/query): the project's
 * credentials and role, then data residency by the request's host (docs/queries.md, "Data residency").
 */
@Injectable()
export class QueryAccessGuard implements CanActivate {
  private readonly regionHosts: readonly RegionHost[];

  constructor(
    private readonly projectAccess: ProjectAccessGuard,
    config: AppConfig,
  ) {
    // The region names are the projects' (libs/projects), so they are checked here, at start.
    const unknown = config.queryRegionHosts.find(({ region }) => !(DATA_REGIONS as readonly string[]).includes(region));
    if (unknown)
      throw new ConfigError([
        `QUERY_REGION_HOSTS gives ${unknown.host} the region ${unknown.region}; project regions are ${DATA_REGIONS.join(', ')}`,
      ]);
    this.regionHosts = config.queryRegionHosts;
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    // Credentials first: a project's region is told only to those who may read the project.
    await this.projectAccess.canActivate(context);
    const req = context.switchToHttp().getRequest<AccessRequest>();
    const refusal = regionRefusal(this.regionHosts, req.hostname ?? '', req.projectAccess!.project);
    if (refusal) throw new AccessDenied(403, refusal);
    return true;
  }
}
