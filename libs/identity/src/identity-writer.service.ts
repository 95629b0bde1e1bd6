import { IdentityClusters, IdentityLink, LinkRefusal, LinkRefusalRule } from '@analytics/events';
import { projectScope } from '@analytics/tenancy';
import { Injectable, Logger, Optional } from '@nestjs/common';
import { IdentityMergeHook } from './identity-merge-hook';
import { IdentityMetrics } from './identity-metrics';
import { IdentityRepository } from './identity.repository';

/** A link the rules refused, by its position in the applied list, with the rule and its message. */
export interface RefusedLink {
  position: number;
  rule: LinkRefusalRule;
  reason: string;
}

/**
 * Applies identity links to the mapping, project by project and in the order given: reads the
 * clusters they touch (one query), runs the rules in memory, writes the rows that changed. Applying
 * the same links again writes nothing new, so a redelivered batch is harmless. Then the merge hook
 * (profile folding) sees the merged ids of the clusters the batch touched.
 */
@Injectable()
export class IdentityWriter {
  private readonly logger = new Logger(IdentityWriter.name);
  /** One apply at a time in this process: two concurrent ones would each rewrite the clusters from the same old rows. */
  private running: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly repository: IdentityRepository,
    private readonly metrics: IdentityMetrics,
    /** Profile folding, when the profiles lib is mounted in this process (docs/identity.md). */
    @Optional() private readonly hook?: IdentityMergeHook,
  ) {}

  apply(links: IdentityLink[]): Promise<RefusedLink[]> {
    if (!links.length) return Promise.resolve([]);
    const run = this.running.then(() => this.applyNow(links));
    this.running = run.catch(() => undefined);
    return run;
  }

  private async applyNow(links: IdentityLink[]): Promise<RefusedLink[]> {
    const byProject = new Map<number, { link: IdentityLink; position: number }[]>();
    links.forEach((link, position) => {
      const list = byProject.get(link.projectId) ?? [];
      list.push({ link, position });
      byProject.set(link.projectId, list);
    });
    const refused: RefusedLink[] = [];
    for (const [projectId, items] of byProject) {
      // The links were authenticated by the gateway, each naming its project.
      const scope = projectScope(projectId);
      const ids = [...new Set(items.flatMap(({ link }) => [link.a, link.b]))];
      const { members, version } = await this.repository.load(scope, ids);
      const clusters = new IdentityClusters(members);
      let applied = 0;
      for (const { link, position } of items) {
        const outcome = clusters.apply(link);
        if (outcome.kind === 'refused') {
          refused.push({ position, rule: outcome.rule, reason: outcome.reason });
          this.report(projectId, link, outcome, 'refused');
          continue;
        }
        applied++;
        if (outcome.kind === 'applied' && outcome.displaced)
          this.report(projectId, link, outcome.displaced, 'displaced');
      }
      await this.repository.write(scope, clusters.changed(), version + 1, clusters.rows());
      const merged = clusters.rows().filter((m) => m.distinctId !== m.personId);
      if (this.hook && merged.length)
        await this.hook.merged(
          scope,
          merged.map(({ distinctId, personId }) => ({ distinctId, personId })),
        );
      this.metrics.applied.inc(applied);
    }
    return refused.sort((x, y) => x.position - y.position);
  }

  /**
   * A refusal is counted by its rule and logged, never silent; `displaced`: an earlier link took a
   * device from a later one's user, which counts as that link refused (so the count does not depend
   * on which came first). The merge rules' refusals are a client's data, so the debug log; the
   * 500-id limit a warning, as before.
   */
  private report(projectId: number, link: IdentityLink, refusal: LinkRefusal, what: 'refused' | 'displaced'): void {
    this.metrics.refused.inc({ reason: refusal.rule });
    const outcome = what === 'refused' ? 'refused' : 'applied, and the later link it displaces refused';
    const message = `project ${projectId}: ${link.kind ?? link.mode} link ${JSON.stringify(link.a)} – ${JSON.stringify(link.b)} ${outcome}: ${refusal.reason}`;
    if (refusal.rule === 'cluster_limit') this.logger.warn(message);
    else this.logger.debug(message);
  }
}
