import { CSSProperties, ReactNode } from 'react';
import { readApi } from '../api/http';
import { Chart, Series } from '../chart';
import { ErrorNote, Loading, useLoad } from '../components';
import { useConsole } from '../project';
import { FunnelResult, FunnelStepResult, totalsBySegment } from './funnel-totals';
import { flattenSeries, InsightsResult, unitOfKeys } from './insights-series';
import { RetentionResult, retentionCurves } from './retention-curve';
import { RetentionDefinition } from './retention-saved';

export interface Tile {
  kind: 'insights' | 'funnel' | 'retention';
  report_id: number;
  layout: { x: number; y: number; w: number; h: number };
  report: { name: string } | { deleted: true };
}
interface Bookmark {
  id: number;
  name: string;
  params: Record<string, unknown> & { events: { where?: string }[]; unit: string };
}
/** What a tile draws: a chart (insights over time, retention by interval, with a y suffix) or a funnel's steps. */
export type TileResult =
  { insights: { labels: string[]; series: Series[]; suffix?: string } } | { funnel: FunnelStepResult[] };

const TILE_ROWS_PX = 70;
export const tileName = (tile: Tile) => ('name' in tile.report ? tile.report.name : 'Deleted report');

/** Both filters: the report's own and the board's (as the shared view applies them on the server). */
const both = (own: string | undefined, board: string) => (!board ? own : own ? `(${own}) and (${board})` : board);

/** A tile's result as the query API (or the shared board) answers it, shaped for drawing. */
export function tileResult(kind: Tile['kind'], result: unknown, unit?: string): TileResult {
  if (kind === 'funnel') return { funnel: totalsBySegment(result as FunnelResult).get('$overall') ?? [] };
  // A tile draws the curve of all cohorts; the shared view does not say the unit, so its axis says "interval".
  if (kind === 'retention')
    return { insights: { ...retentionCurves(result as RetentionResult, unit ?? 'interval', 0), suffix: ' %' } };
  const insights = result as InsightsResult;
  return { insights: flattenSeries(insights, unit ?? unitOfKeys(insights)) };
}

/** Every tile at its place on the 12-column grid. */
export function BoardGrid({ tiles, render }: { tiles: Tile[]; render(tile: Tile): ReactNode }) {
  const grid: CSSProperties = { display: 'grid', gridTemplateColumns: 'repeat(12, 1fr)', gap: '1rem' };
  return (
    <div className="board-grid" style={grid}>
      {tiles.map((tile, i) => (
        <section
          key={i}
          aria-label={tileName(tile)}
          className="tile"
          style={{
            gridColumn: `${tile.layout.x + 1} / span ${tile.layout.w}`,
            gridRow: `${tile.layout.y + 1} / span ${tile.layout.h}`,
            minHeight: tile.layout.h * TILE_ROWS_PX,
          }}
        >
          {render(tile)}
        </section>
      ))}
    </div>
  );
}

/** One tile's title and its chart, step table, loading note or failure in words. */
export function TileContent({ name, result, error }: { name: string; result?: TileResult; error?: unknown }) {
  const title = <h2>{name}</h2>;
  if (error)
    return (
      <>
        {title}
        <ErrorNote error={error} />
      </>
    );
  if (!result)
    return (
      <>
        {title}
        <Loading what="the report" />
      </>
    );
  if ('insights' in result)
    return (
      <>
        {title}
        <Chart
          kind="line"
          labels={result.insights.labels}
          series={result.insights.series}
          suffix={result.insights.suffix}
          description={`${name} over the board's days`}
        />
      </>
    );
  return (
    <>
      {title}
      <table aria-label="Funnel steps">
        <tbody>
          {result.funnel.map((s, i) => (
            <tr key={i}>
              <th scope="row">{s.event}</th>
              <td>{s.count}</td>
              <td>{(s.overall_conv_ratio * 100).toFixed(1)} %</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

/** One tile of a board: its saved report run over the board's days and filter, with its own loading and error state. */
export function TileView({
  tile,
  range,
  where,
}: {
  tile: Tile;
  range: { from_date: string; to_date: string };
  where: string;
}) {
  const { project } = useConsole();
  const base = `/api/app/projects/${project.id}`;
  const deleted = !('name' in tile.report);
  const result = useLoad(async () => {
    if (deleted) return undefined;
    if (tile.kind === 'funnel')
      return tileResult(
        'funnel',
        await readApi(`/api/query/funnels`, { project_id: project.id, funnel_id: tile.report_id, ...range, where }),
      );
    if (tile.kind === 'retention') {
      const { results: report } = await readApi<{
        results: RetentionDefinition & { born_where?: string; where?: string };
      }>(`${base}/retention-reports/${tile.report_id}`, {});
      const { retention_type, born_event, event, unit, interval_count } = report;
      // The board's filter narrows the births and the returns alike, as the shared view does.
      const filters = { born_where: both(report.born_where, where), where: both(report.where, where) };
      const query = { retention_type, born_event, event, unit, interval_count, ...filters };
      return tileResult(
        'retention',
        await readApi('/api/query/retention', { project_id: project.id, ...query, ...range }),
        unit,
      );
    }
    const { results: saved } = await readApi<{ results: Bookmark }>(`${base}/bookmarks/${tile.report_id}`, {});
    const { last_days: _last, from_date: _from, to_date: _to, ...rest } = saved.params;
    const params = {
      ...rest,
      ...range,
      events: saved.params.events.map((m) => ({ ...m, where: both(m.where, where) })),
    };
    const insights = await readApi<InsightsResult>('/api/query/insights', {
      project_id: project.id,
      params: JSON.stringify(params),
    });
    return tileResult('insights', insights, saved.params.unit);
  }, [tile.kind, tile.report_id, range.from_date, range.to_date, where]);
  if (deleted) return <p className="muted">Report deleted: edit the board to remove this tile.</p>;
  return <TileContent name={tileName(tile)} result={result.value} error={result.error} />;
}
