import { event, segmentationScenario } from '../../support/scenario';

export default segmentationScenario({
  description: 'unit=hour keys are YYYY-MM-DD HH:00:00 and series lists every hour of the range',
  query: { event: 'A', from_date: '2024-03-04', to_date: '2024-03-04', unit: 'hour' },
  events: [
    event('A', '2024-03-04T13:05:00.000Z', 'u1'),
    event('A', '2024-03-04T13:55:00.000Z', 'u2'),
    event('A', '2024-03-04T14:00:00.000Z', 'u1'),
  ],
  expected: {
    data: {
      series: Array.from({ length: 24 }, (_, h) => `2024-03-04 ${String(h).padStart(2, '0')}:00:00`),
      values: { A: { '2024-03-04 12:00:00': 0, '2024-03-04 13:00:00': 2, '2024-03-04 14:00:00': 1 } },
    },
    legend_size: 1,
  },
});
