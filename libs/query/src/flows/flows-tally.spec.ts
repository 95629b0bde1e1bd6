import { QueryParams } from '../http/query-params';
import { parseFlowsQuery } from './flows-spec';
import { comparePaths, flowsResult } from './flows-tally';

const params = (query: Record<string, string>) => new QueryParams(new URLSearchParams(query));
const range = { from_date: '2024-03-04', to_date: '2024-03-05' };

describe('flows parameters', () => {
  it('defaults to 3 steps after the anchor and 10 paths', () => {
    expect(parseFlowsQuery(params({ event: 'Sign up', ...range }))).toMatchObject({
      event: 'Sign up',
      direction: 'after',
      steps: 3,
      limit: 10,
    });
  });

  it.each([
    [{ ...range }, 'event is required'],
    [{ event: 'A', ...range, steps: '6' }, 'steps must be a whole number from 1 to 5, got "6"'],
    [{ event: 'A', ...range, steps: '0' }, 'steps must be a whole number from 1 to 5, got "0"'],
    [{ event: 'A', ...range, direction: 'sideways' }, 'direction must be one of after, before, got "sideways"'],
    [{ event: 'A', ...range, limit: '101' }, 'limit must be a whole number from 1 to 100, got "101"'],
    [
      { event: 'A', from_date: '2024-03-05', to_date: '2024-03-04' },
      'from_date 2024-03-05 is after to_date 2024-03-04',
    ],
  ])('refuses %j: %s', (query, message) => {
    expect(() => parseFlowsQuery(params(query))).toThrow(expect.objectContaining({ status: 400, message }));
  });

  it('refuses a where that does not parse, naming it', () => {
    expect(() => parseFlowsQuery(params({ event: 'A', ...range, where: 'properties["plan"] ==' }))).toThrow(
      expect.objectContaining({ status: 400, message: expect.stringMatching(/^where: /) }),
    );
  });
});

describe('flowsResult', () => {
  const spec = parseFlowsQuery(params({ event: 'A', ...range, steps: '3', limit: '2' }));

  it('derives drop-off from how many people reached each step, and the paths past the limit', () => {
    const result = flowsResult(spec, {
      people: 10,
      distinctPaths: 4,
      top: [
        { steps: ['A', 'B', 'C'], count: 5 },
        { steps: ['A'], count: 3 },
      ],
      reached: [10, 7, 5],
    });
    expect(result).toEqual({
      event: 'A',
      direction: 'after',
      people: 10,
      paths: [
        { steps: ['A', 'B', 'C'], count: 5 },
        { steps: ['A'], count: 3 },
      ],
      other: { paths: 2, count: 2 },
      drop_off: [
        { step: 1, reached: 7, dropped: 3 },
        { step: 2, reached: 5, dropped: 2 },
        { step: 3, reached: 0, dropped: 5 },
      ],
    });
  });

  it('answers an empty range with zeros', () => {
    expect(flowsResult(spec, { people: 0, distinctPaths: 0, top: [], reached: [] })).toMatchObject({
      people: 0,
      paths: [],
      other: { paths: 0, count: 0 },
      drop_off: [1, 2, 3].map((step) => ({ step, reached: 0, dropped: 0 })),
    });
  });
});

describe('comparePaths', () => {
  it('lists the most taken first, then by steps in byte order, a prefix before its longer paths', () => {
    const paths = [
      { steps: ['A', 'b'], count: 2 },
      { steps: ['A', 'B', 'C'], count: 2 },
      { steps: ['A', 'B'], count: 2 },
      { steps: ['A', 'é'], count: 2 },
      { steps: ['Z'], count: 3 },
    ];
    expect([...paths].sort(comparePaths).map((p) => p.steps.join('>'))).toEqual(['Z', 'A>B', 'A>B>C', 'A>b', 'A>é']);
  });
});
