import { ProjectAuthenticator } from '@analytics/auth';
import { AppConfig } from '@analytics/config';
import { EVENT_LIMITS } from '@analytics/events';
import {
  isPlainObject,
  LocationHint,
  ProfileLimits,
  ProfileScope,
  ProfileUpdate,
  recordIdentity,
  RecordOutcome,
  validateProfileRecord,
} from '@analytics/profile-updates';
import { IngestError, SinkUnavailableError } from '@analytics/sdk-transport';
import { GroupKeysService, Project } from '@analytics/projects';
import { RateLimit, RateLimiterFactory } from '@analytics/rate-limits';
import { projectScope } from '@analytics/tenancy';
import { Injectable } from '@nestjs/common';
import { ProfileGeolocator } from './profile-geolocator';
import { ProfileMetrics } from './profile-metrics';
import { ProfileUpdateSink } from './profile-update.sink';
import { TimeSlices } from './time-slices';

/** A record that was not applied: its position in the request, its identity as sent, and why. */
export interface FailedProfileRecord {
  index: number;
  $distinct_id?: string;
  $group_key?: string;
  $group_id?: string;
  message: string;
}

export interface ProfileIngestOutcome {
  accepted: number;
  failed: FailedProfileRecord[];
}

export interface ProfileIngestOptions {
  /** strict=1: custom `$` property names fail their record. */
  strict: boolean;
  /** The request IP, when the client asked for it to be used (`ip=1`). */
  requestIp?: string;
  /** Receipt time, read by the caller from its clock. */
  nowMs: number;
}

const ENDPOINT: Record<ProfileScope, string> = { user: 'engage', group: 'groups' };

/**
 * The rules of profile ingestion (/engage, /groups): batch size, tokens, group keys, each record's
 * validation, rate limits, and persisting before answering.
 */
@Injectable()
export class ProfileIngestService {
  private readonly rateLimit: RateLimit;
  private readonly limits: ProfileLimits;

  constructor(
    config: AppConfig,
    rateLimits: RateLimiterFactory,
    private readonly sink: ProfileUpdateSink,
    private readonly authenticator: ProjectAuthenticator,
    private readonly groupKeys: GroupKeysService,
    private readonly geolocator: ProfileGeolocator,
    private readonly metrics: ProfileMetrics,
  ) {
    this.limits = config.profiles;
    this.rateLimit = rateLimits.create({
      name: 'ingest-profiles',
      points: config.ingest.eventsPerMinute,
      durationSeconds: 60,
    });
  }

  async receive(scope: ProfileScope, records: unknown[], options: ProfileIngestOptions): Promise<ProfileIngestOutcome> {
    if (records.length > EVENT_LIMITS.maxEventsPerRequest) {
      throw new IngestError(
        400,
        `request has ${records.length} updates; at most ${EVENT_LIMITS.maxEventsPerRequest} are allowed`,
      );
    }
    const { nowMs } = options;
    const failed: FailedProfileRecord[] = [];
    const accepted: { index: number; update: ProfileUpdate }[] = [];
    const projects = new Map<string, Promise<Project | undefined>>();
    const fail = (index: number, message: string) =>
      failed.push({ index, ...recordIdentity(records[index], scope), message });
    const slices = new TimeSlices();
    for (const [index, record] of records.entries()) {
      await slices.pause();
      if (!isPlainObject(record)) {
        fail(index, 'each update must be a JSON object');
        continue;
      }
      const token = record.$token;
      if (typeof token !== 'string' || token === '') {
        fail(index, '$token, missing or empty');
        continue;
      }
      if (!projects.has(token)) projects.set(token, this.authenticator.byToken(token));
      const project = await projects.get(token)!;
      if (!project) {
        fail(index, '$token, not the token of any project');
        continue;
      }
      const outcome = await this.validate(record, scope, project, options, nowMs);
      if (outcome.ok) accepted.push({ index, update: outcome.update });
      else fail(index, outcome.message);
    }
    await this.checkRates(accepted.map((a) => a.update));
    const refused = await this.persist(accepted.map((a) => a.update));
    refused.forEach(({ position, message }) => fail(accepted[position].index, message));
    this.metrics.received.inc({ endpoint: ENDPOINT[scope], outcome: 'accepted' }, records.length - failed.length);
    this.metrics.received.inc({ endpoint: ENDPOINT[scope], outcome: 'rejected' }, failed.length);
    return { accepted: records.length - failed.length, failed: failed.sort((a, b) => a.index - b.index) };
  }

  private async validate(
    record: unknown,
    scope: ProfileScope,
    project: Project,
    options: ProfileIngestOptions,
    nowMs: number,
  ): Promise<RecordOutcome> {
    const outcome = validateProfileRecord(record, {
      scope,
      projectId: project.id,
      strict: options.strict,
      nowMs,
      limits: this.limits,
    });
    if (!outcome.ok) return outcome;
    const { update } = outcome;
    if (scope === 'group' && !(await this.groupKeys.isDefined(projectScope(project.id), update.groupKey))) {
      return {
        ok: false,
        message: `$group_key "${update.groupKey}" is not defined in this project: define it first (POST /api/app/projects/${project.id}/group-keys)`,
      };
    }
    const geo = await this.geolocator.locate(locationOf(outcome.location, options.requestIp));
    return geo ? { ...outcome, update: { ...update, geo } } : outcome;
  }

  private async checkRates(updates: ProfileUpdate[]): Promise<void> {
    const perProject = new Map<number, number>();
    for (const { projectId } of updates) perProject.set(projectId, (perProject.get(projectId) ?? 0) + 1);
    for (const [projectId, count] of perProject) {
      const decision = await this.rateLimit.consume(projectId, count);
      if (!decision.allowed)
        throw new IngestError(
          429,
          'project exceeded its ingestion rate limit; retry with backoff',
          decision.retryAfterSeconds,
        );
    }
  }

  private async persist(updates: ProfileUpdate[]) {
    try {
      return await this.sink.publish(updates);
    } catch (error) {
      if (error instanceof SinkUnavailableError) throw new IngestError(503, error.message, 1);
      throw error;
    }
  }
}

/** `$ip` wins; the request IP stands in only when asked for (`ip=1`) and `$ip` is not "0". */
function locationOf(hint: LocationHint, requestIp: string | undefined): LocationHint {
  return hint.ip === undefined && requestIp ? { ...hint, ip: requestIp } : hint;
}
