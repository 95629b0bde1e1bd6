import { Clock } from '@analytics/clock';
import { ReplayScreen, ScreenedLetter } from '@analytics/kafka';
import { ProjectScope, projectScope } from '@analytics/tenancy';
import { setTimeout as sleep } from 'node:timers/promises';
import { readLetter, screenLetter, subjectsOf } from './dead-letter-contents';
import { ErasedIdsRepository } from './erased-ids.repository';

export interface DeletionScreenOptions {
  /** How long a batch waits for deletions of its projects to leave STAGING before the replay stops. */
  waitMs: number;
  pollMs: number;
}

const DEFAULTS: DeletionScreenOptions = { waitMs: 15 * 60_000, pollMs: 1000 };

/**
 * dlq:replay's screen (docs/compliance.md, "Dead letters"): a dead-letter topic keeps its messages
 * (Kafka deletes none one by one), so deletion reaches it at replay: each batch drops what a started
 * deletion covers and stamps the events it sends with the replay's time. A deletion that has not
 * fixed its ids yet (PENDING, STAGING) is waited for, since a replayed row stamped after its request
 * would escape it.
 */
export class DeletionScreen {
  private readonly options: DeletionScreenOptions;

  constructor(
    private readonly erasures: Pick<ErasedIdsRepository, 'unstarted' | 'covering'>,
    private readonly clock: Clock,
    options: Partial<DeletionScreenOptions> = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
  }

  readonly screen: ReplayScreen = async (topic, messages, heartbeat): Promise<(ScreenedLetter | undefined)[]> => {
    const contents = messages.map((message) => readLetter(topic, message.value));
    const idsOf = new Map<number, string[]>();
    for (const { projectId, distinctId } of contents.flatMap(subjectsOf)) {
      const ids = idsOf.get(projectId) ?? [];
      ids.push(distinctId);
      idsOf.set(projectId, ids);
    }
    // The letters name the projects the gateway authenticated when it first took them (readLetter keeps only possible ids).
    const projects = [...idsOf.keys()].map((projectId) => projectScope(projectId));
    // Taken before the wait: a deletion requested after it finds the replayed rows older than its request.
    const stampMs = this.clock.now();
    await this.untilStarted(projects, heartbeat);
    const erasures = await this.erasures.covering(
      projects.map((scope) => ({ scope, rows: idsOf.get(scope.projectId)! })),
    );
    return contents.map((letter, i) => screenLetter(letter, Number(messages[i].timestamp), erasures, stampMs));
  };

  private async untilStarted(projects: ProjectScope[], heartbeat: () => Promise<void>): Promise<void> {
    const deadline = this.clock.now() + this.options.waitMs;
    for (;;) {
      const waiting = await this.erasures.unstarted(projects);
      if (!waiting.length) return;
      if (this.clock.now() >= deadline) {
        throw new Error(
          `deletions ${waiting.map((job) => `${job.id} (project ${job.projectId})`).join(', ')} have not started after ${this.options.waitMs / 1000} s; run the replay again once they have`,
        );
      }
      await heartbeat();
      await sleep(this.options.pollMs);
    }
  }
}
