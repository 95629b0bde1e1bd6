import { Clock } from '@analytics/clock';
import {
  FunnelsService,
  InsightsService,
  parseFunnelQuery,
  parseRetentionQuery,
  QueryParams,
  RetentionService,
  TimeZone,
} from '@analytics/query';
import { InsightsParams, validateInsightsParams } from '@analytics/report-definitions';
import { SavedReportsService } from '@analytics/reports';
import { ProjectScope } from '@analytics/tenancy';
import { Injectable } from '@nestjs/common';
import { BoardDateRange, BoardRow } from './boards.schema';
import { ShownTile } from './boards.service';

const DAY_MS = 86_400_000;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Both filters: a tile's events must pass its report's and the board's. */
function both(own: string | undefined, board: string | null): string | undefined {
  if (!board) return own;
  return own ? `(${own}) and (${board})` : board;
}

/**
 * A tile's report computed now by the query API's own services, over the board's days and with the
 * board's `where` beside the report's own filters (docs/boards.md, "What a tile shows").
 */
@Injectable()
export class BoardTileResults {
  constructor(
    private readonly reports: SavedReportsService,
    private readonly insights: InsightsService,
    private readonly funnels: FunnelsService,
    private readonly retention: RetentionService,
    private readonly clock: Clock,
  ) {}

  async compute(scope: ProjectScope, board: BoardRow, tile: ShownTile, signal?: AbortSignal): Promise<unknown> {
    const range = this.days(board.dateRange, scope);
    const queryOf = (params: URLSearchParams) => new QueryParams(params, TimeZone.of(scope.timeZone));
    if (tile.kind === 'funnel') {
      const params = new URLSearchParams({ funnel_id: String(tile.report_id), ...range });
      if (board.whereFilter) params.set('where', board.whereFilter);
      return this.funnels.query(scope, parseFunnelQuery(queryOf(params)), signal);
    }
    if (tile.kind === 'retention') {
      const {
        born_where: bornWhere,
        where,
        interval_count: count,
        ...rest
      } = (await this.reports.get(scope, 'retention', tile.report_id)).definition;
      const params = new URLSearchParams({ ...rest, interval_count: String(count), ...range });
      // The board's filter narrows the births and the returns alike.
      const filters = { born_where: both(bornWhere, board.whereFilter), where: both(where, board.whereFilter) };
      for (const [name, value] of Object.entries(filters)) if (value) params.set(name, value);
      return this.retention.retention(scope, parseRetentionQuery(queryOf(params)), signal);
    }
    const saved = (await this.reports.get(scope, 'bookmark', tile.report_id)).definition;
    const { from_date: _from, to_date: _to, last_days: _last, ...rest } = saved;
    const definition: InsightsParams = {
      ...rest,
      ...range,
      events: saved.events.map((metric) => ({ ...metric, where: both(metric.where, board.whereFilter) })),
    };
    return this.insights.run(scope, validateInsightsParams(definition), signal);
  }

  /** The board's range as days of the project's time zone, as every report counts them. */
  private days(range: BoardDateRange, scope: ProjectScope): { from_date: string; to_date: string } {
    if ('from_date' in range) return range;
    const today = TimeZone.of(scope.timeZone).dayOf(this.clock.now());
    return { from_date: day((today - range.last_days + 1) * DAY_MS), to_date: day(today * DAY_MS) };
  }
}
