import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, MarkLineComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';

echarts.use([LineChart, BarChart, GridComponent, LegendComponent, TooltipComponent, MarkLineComponent, SVGRenderer]);

/** At most this many series are drawn: more are unreadable, and the table below the chart has them all. */
export const MAX_SERIES = 12;

export interface Series {
  name: string;
  /** Value per x label. */
  values: Record<string, number>;
}

export interface ChartProps {
  kind: 'line' | 'bar';
  labels: string[];
  series: Series[];
  /** Vertical lines with a label at x (annotations). */
  marks?: { x: string; text: string }[];
  /** What the chart shows, for screen readers. */
  description: string;
  /** A label a series has no value for is a gap in its line, not a zero (a cohort too young for that interval). */
  gaps?: boolean;
  /** Text after each value on the axis and in the tooltip (`%`). */
  suffix?: string;
}

// A palette whose colours each reach 3:1 against white (WCAG non-text contrast).
const PALETTE = [
  '#1d4ed8',
  '#b45309',
  '#047857',
  '#b91c1c',
  '#7c3aed',
  '#0e7490',
  '#be185d',
  '#4d7c0f',
  '#c2410c',
  '#4338ca',
  '#0f766e',
  '#a21caf',
];

export function Chart({ kind, labels, series, marks = [], description, gaps = false, suffix = '' }: ChartProps) {
  const element = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!element.current) return;
    const chart = echarts.init(element.current, undefined, { renderer: 'svg' });
    chart.setOption({
      color: PALETTE,
      animation: false,
      tooltip: {
        trigger: kind === 'bar' ? 'item' : 'axis',
        valueFormatter: (v: unknown) => `${String(v ?? '')}${suffix}`,
      },
      legend: { top: 0, type: 'scroll', textStyle: { color: '#1f2937' } },
      grid: { left: 48, right: 24, top: 40, bottom: 32 },
      xAxis: { type: 'category', data: labels, axisLabel: { color: '#374151' } },
      yAxis: { type: 'value', axisLabel: { color: '#374151', formatter: `{value}${suffix}` } },
      series: series.slice(0, MAX_SERIES).map((s, index) => ({
        name: s.name,
        type: kind,
        data: labels.map((label) => s.values[label] ?? (gaps ? null : 0)),
        ...(index === 0 && marks.length
          ? {
              markLine: {
                symbol: 'none',
                lineStyle: { color: '#111827', type: 'dashed' },
                label: { formatter: '{b}', color: '#111827' },
                data: marks.filter((m) => labels.includes(m.x)).map((m) => ({ name: m.text, xAxis: m.x })),
              },
            }
          : {}),
      })),
    });
    const resize = () => chart.resize();
    window.addEventListener('resize', resize);
    return () => {
      window.removeEventListener('resize', resize);
      chart.dispose();
    };
  }, [kind, labels, series, marks, gaps, suffix]);
  return <div className="chart" ref={element} role="img" aria-label={description} />;
}
