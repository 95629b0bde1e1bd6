import { event, numericScenario } from '../../support/scenario';

export default numericScenario({
  description:
    '/segmentation/numeric: numbers fall into ranges of a round width over their spread; other values are left out',
  query: { event: 'Paid', from_date: '2024-03-04', to_date: '2024-03-04', on: 'properties["amount"]' },
  events: [
    event('Paid', '2024-03-04T10:00:00.000Z', 'u1', { amount: 2050 }),
    event('Paid', '2024-03-04T11:00:00.000Z', 'u1', { amount: 2150 }),
    event('Paid', '2024-03-04T12:00:00.000Z', 'u2', { amount: 2160 }),
    event('Paid', '2024-03-04T13:00:00.000Z', 'u3', { amount: 2490 }),
    event('Paid', '2024-03-04T14:00:00.000Z', 'u4', { amount: 'lots' }),
  ],
  expected: {
    data: {
      series: ['2024-03-04'],
      values: {
        '2,050 - 2,100': { '2024-03-04': 1 },
        '2,150 - 2,200': { '2024-03-04': 2 },
        '2,450 - 2,500': { '2024-03-04': 1 },
      },
    },
    legend_size: 3,
  },
});
