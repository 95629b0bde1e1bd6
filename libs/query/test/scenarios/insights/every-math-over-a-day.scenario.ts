import { event, insightsScenario } from '../../support/scenario';

const p90 = 2 + (0.9 * 2 + 1 - 2) * (10 - 2);

export default insightsScenario({
  description:
    'the math of insights: total, unique, and over the JSON numbers of a property (strings and missing values skipped)',
  params: {
    events: (['total', 'unique', 'sum', 'average', 'min', 'max', 'median', 'p90'] as const).map((math) => ({
      event: 'A',
      math,
      ...(math !== 'total' && math !== 'unique' && { property: 'n' }),
    })),
    from_date: '2024-03-04',
    to_date: '2024-03-04',
    unit: 'day',
  },
  events: [
    event('A', '2024-03-04T10:00:00.000Z', 'u1', { n: 1 }),
    event('A', '2024-03-04T11:00:00.000Z', 'u1', { n: 2 }),
    event('A', '2024-03-04T12:00:00.000Z', 'u2', { n: 10 }),
    event('A', '2024-03-04T13:00:00.000Z', 'u3', { n: '3' }),
    event('A', '2024-03-04T14:00:00.000Z', 'u4'),
  ],
  expected: {
    date_range: { from_date: '2024-03-04T00:00:00+00:00', to_date: '2024-03-04T23:59:59.999000+00:00' },
    headers: ['$event'],
    series: {
      'A (total)': { '2024-03-04T00:00:00+00:00': 5 },
      'A (unique)': { '2024-03-04T00:00:00+00:00': 4 },
      'A (sum of n)': { '2024-03-04T00:00:00+00:00': 13 },
      'A (average of n)': { '2024-03-04T00:00:00+00:00': 13 / 3 },
      'A (min of n)': { '2024-03-04T00:00:00+00:00': 1 },
      'A (max of n)': { '2024-03-04T00:00:00+00:00': 10 },
      'A (median of n)': { '2024-03-04T00:00:00+00:00': 2 },
      'A (p90 of n)': { '2024-03-04T00:00:00+00:00': p90 },
    },
  },
});
