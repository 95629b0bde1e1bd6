import { readApi } from '../api/http';
import { Chart } from '../chart';
import { ErrorNote, Loading, useLoad } from '../components';
import { useConsole } from '../project';
import { totalsBySegment } from './funnel-totals';
import { flattenSeries, InsightsResult } from './insights-series';

export interface Tile {
  kind: 'insights' | 'funnel';
  report_id: number;
  layout: { x: number; y: number; w: number; h: number };
  report: { name: string } | { deleted: true };
}
interface Bookmark {
  id: number;
  name: string;
  params: Record<string, unknown> & { events: { where?: string }[]; unit: string };
}

/** Both filters: the report's own and the board's (as the shared view applies them on the server). */
const both = (own: string | undefined, board: string) => (!board ? own : own ? `(${own}) and (${board})` : board);

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
      return {
        funnel: totalsBySegment(
          await readApi(`/api/query/funnels`, { project_id: project.id, funnel_id: tile.report_id, ...range, where }),
        ),
      };
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
    return { insights: flattenSeries(insights, saved.params.unit) };
  }, [tile.kind, tile.report_id, range.from_date, range.to_date, where]);
  if (deleted) return <p className="muted">Report deleted: edit the board to remove this tile.</p>;
  const name = 'name' in tile.report ? tile.report.name : '';
  const title = <h2>{name}</h2>;
  if (result.error)
    return (
      <>
        {title}
        <ErrorNote error={result.error} />
      </>
    );
  if (!result.value)
    return (
      <>
        {title}
        <Loading what="the report" />
      </>
    );
  if (result.value.insights) {
    const { labels, series } = result.value.insights;
    return (
      <>
        {title}
        <Chart kind="line" labels={labels} series={series} description={`${name} over the board's days`} />
      </>
    );
  }
  const steps = result.value.funnel?.get('$overall') ?? [];
  return (
    <>
      {title}
      <table aria-label="Funnel steps">
        <tbody>
          {steps.map((s, i) => (
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
