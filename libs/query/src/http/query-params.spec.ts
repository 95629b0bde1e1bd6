import { QueryError } from '../query-error';
import { TimeZone } from '../time/time-zone';
import { dateBuckets, dayRange, QueryParams } from './query-params';

const params = (query: string) => new QueryParams(new URLSearchParams(query));
const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return { status: (error as QueryError).status, message: (error as Error).message };
  }
  throw new Error('accepted');
};

describe('query parameters', () => {
  it('reads a date range and refuses a reversed or malformed one', () => {
    expect(dayRange(params('from_date=2024-03-04&to_date=2024-03-05'))).toEqual({
      fromDay: 19786,
      toDay: 19787,
      zone: TimeZone.UTC,
    });
    // The days are the project's zone's: the params carry it.
    const berlin = TimeZone.of('Europe/Berlin');
    const zoned = new QueryParams(new URLSearchParams('from_date=2024-03-31&to_date=2024-03-31'), berlin);
    expect(dayRange(zoned)).toEqual({ fromDay: 19813, toDay: 19813, zone: berlin });
    expect(refusal(() => dayRange(params('from_date=2024-03-05&to_date=2024-03-04')))).toEqual({
      status: 400,
      message: 'from_date 2024-03-05 is after to_date 2024-03-04',
    });
    expect(refusal(() => dayRange(params('from_date=2024-13-01&to_date=2024-03-04')))).toMatchObject({
      message: 'from_date must be a date as yyyy-mm-dd, got "2024-13-01"',
    });
    expect(refusal(() => dayRange(params('to_date=2024-03-04')))).toMatchObject({
      message: 'from_date is required (yyyy-mm-dd)',
    });
  });

  it('takes interval or unit, not both', () => {
    expect(dateBuckets(params(''))).toEqual({ kind: 'days', days: 1 });
    expect(dateBuckets(params('interval=7'))).toEqual({ kind: 'days', days: 7 });
    expect(dateBuckets(params('unit=week'))).toEqual({ kind: 'week' });
    expect(refusal(() => dateBuckets(params('unit=week&interval=2')))).toMatchObject({
      status: 400,
      message: 'give either interval or unit, not both',
    });
  });

  it('reads form and JSON bodies under the query string, and refuses bad values by name', () => {
    const merged = QueryParams.from('/api/query/cohorts/list?project_id=3', { project_id: '4', workspace_id: 9 });
    expect([merged.text('project_id'), merged.text('workspace_id')]).toEqual(['3', '9']);
    expect(refusal(() => params('limit=0').integer('limit', 1, 10))).toMatchObject({
      message: 'limit must be a whole number from 1 to 10, got "0"',
    });
    expect(refusal(() => params('event=Signup').stringArray('event'))).toMatchObject({
      message: 'event must be a JSON array of strings, as in ["Signed up","Purchase"]',
    });
    expect(params('unbounded_retention=true').flag('unbounded_retention')).toBe(true);
  });
});
