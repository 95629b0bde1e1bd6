import { parseJson } from '@analytics/events';
import { IdentityRepository } from '@analytics/identity';
import { ProjectScope } from '@analytics/tenancy';
import { Injectable } from '@nestjs/common';
import { encodeCursor, StreamQuery } from './stream-query';
import { StreamIds } from './stream-sql';
import { StreamRepository } from './stream.repository';

/** Mixpanel's activity-stream answer, with the cursor of the next page (null on the last). */
export interface StreamResult {
  status: 'ok';
  results: { events: unknown[] };
  next_cursor: string | null;
}

/**
 * The activity stream (`/stream/query`): the events of each asked-for person across all their merged
 * ids (docs/identity.md), newest first, a page at a time.
 */
@Injectable()
export class StreamService {
  constructor(
    private readonly identities: IdentityRepository,
    private readonly repository: StreamRepository,
  ) {}

  async query(scope: ProjectScope, query: StreamQuery, signal?: AbortSignal): Promise<StreamResult> {
    const ids = await this.clusters(scope, query.distinctIds);
    // One more than the page: whether a next page exists, without counting.
    const rows = await this.repository.page(scope, ids, query, query.limit + 1, signal);
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    return {
      status: 'ok',
      // The raw export's lines, parsed keeping integers beyond 2^53 exact (written back as stored).
      results: { events: page.map((row) => parseJson(row.line)) },
      next_cursor:
        rows.length > query.limit && last
          ? encodeCursor({
              timeMs: Number(last.time_ms),
              event: last.event,
              distinctId: last.sent_id,
              insertId: last.insert_id,
            })
          : null,
    };
  }

  /** Every id of the people's clusters (one query), each with its cluster's canonical id. */
  private async clusters(scope: ProjectScope, distinctIds: string[]): Promise<StreamIds> {
    const { members } = await this.identities.load(scope, distinctIds);
    const canonicalOf = new Map(members.map((m) => [m.distinctId, m.personId]));
    const all = [...new Set([...distinctIds, ...members.flatMap((m) => [m.distinctId, m.personId])])].sort();
    return { members: all, canonical: all.map((id) => canonicalOf.get(id) ?? id) };
  }
}
