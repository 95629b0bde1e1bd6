import { event, segmentationScenario } from '../../support/scenario';

export default segmentationScenario({
  description: 'Asia/Kolkata (UTC+05:30): a day starts at 18:30 UTC the day before',
  timeZone: 'Asia/Kolkata',
  query: { event: 'A', from_date: '2024-03-04', to_date: '2024-03-05', unit: 'day' },
  events: [
    event('A', '2024-03-03T18:29:59.999Z', 'u1'),
    event('A', '2024-03-03T18:30:00.000Z', 'u1'),
    event('A', '2024-03-04T18:29:59.999Z', 'u2'),
    event('A', '2024-03-04T18:30:00.000Z', 'u3'),
  ],
  expected: {
    data: { series: ['2024-03-04', '2024-03-05'], values: { A: { '2024-03-04': 2, '2024-03-05': 1 } } },
    legend_size: 1,
  },
});
