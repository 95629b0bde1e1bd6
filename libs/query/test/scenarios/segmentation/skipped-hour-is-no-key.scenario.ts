import { event, segmentationScenario } from '../../support/scenario';

const hours = ['00', '01', ...Array.from({ length: 21 }, (_, h) => String(h + 3).padStart(2, '0'))];

export default segmentationScenario({
  description: 'Europe/Berlin, unit=hour on 2024-03-31: the clocks skip 02:00, so the day has 23 hour keys',
  timeZone: 'Europe/Berlin',
  query: { event: 'A', from_date: '2024-03-31', to_date: '2024-03-31', unit: 'hour' },
  events: [
    // 01:59:59.999 CET, then 03:00 CEST one millisecond later.
    event('A', '2024-03-31T00:59:59.999Z', 'u1'),
    event('A', '2024-03-31T01:00:00.000Z', 'u1'),
  ],
  expected: {
    data: {
      series: hours.map((h) => `2024-03-31 ${h}:00:00`),
      values: { A: { '2024-03-31 01:00:00': 1, '2024-03-31 03:00:00': 1 } },
    },
    legend_size: 1,
  },
});
