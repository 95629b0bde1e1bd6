import { SankeyChart } from 'echarts/charts';
import { TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';

echarts.use([SankeyChart, TooltipComponent, SVGRenderer]);

export interface FlowPath {
  steps: string[];
  count: number;
}

/**
 * The paths as a Sankey diagram: one column per step from the anchor, a node per event at that step
 * (the same event at two steps is two nodes, so the diagram has no cycles), links as wide as the
 * people who went from one to the next.
 */
export function FlowChart({ paths, description }: { paths: FlowPath[]; description: string }) {
  const element = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!element.current) return;
    const nodes = new Map<string, { name: string; depth: number }>();
    const links = new Map<string, { source: string; target: string; value: number }>();
    const node = (step: number, event: string) => {
      const name = `${step + 1}. ${event}`;
      nodes.set(name, { name, depth: step });
      return name;
    };
    for (const path of paths) {
      path.steps.forEach((event, i) => {
        const target = node(i, event);
        if (i === 0) return;
        const source = node(i - 1, path.steps[i - 1]);
        const key = `${source}\u0000${target}`;
        const link = links.get(key) ?? { source, target, value: 0 };
        link.value += path.count;
        links.set(key, link);
      });
    }
    const chart = echarts.init(element.current, undefined, { renderer: 'svg' });
    chart.setOption({
      animation: false,
      tooltip: { trigger: 'item' },
      series: [
        {
          type: 'sankey',
          nodeAlign: 'left',
          emphasis: { focus: 'adjacency' },
          label: { color: '#111827' },
          lineStyle: { color: 'source', opacity: 0.35 },
          itemStyle: { color: '#1d4ed8' },
          data: [...nodes.values()],
          links: [...links.values()],
        },
      ],
    });
    const resize = () => chart.resize();
    window.addEventListener('resize', resize);
    return () => {
      window.removeEventListener('resize', resize);
      chart.dispose();
    };
  }, [paths]);
  return <div className="chart" ref={element} role="img" aria-label={description} />;
}
