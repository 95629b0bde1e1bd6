import { ReportsError } from './reports-error';
import { validateRetentionDefinition } from './retention-definition';

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return { status: (error as ReportsError).status, message: (error as Error).message };
  }
  throw new Error('accepted');
};

describe('saved retention definitions', () => {
  const birth = { retention_type: 'birth' as const, born_event: 'Signed up', unit: 'day' as const, interval_count: 7 };

  it('are stored without empty fields, their expressions compiled', () => {
    expect(
      validateRetentionDefinition({ ...birth, event: '', where: '', born_where: 'properties["plan"] == "pro"' }),
    ).toEqual({
      ...birth,
      born_where: 'properties["plan"] == "pro"',
    });
    expect(
      validateRetentionDefinition({
        retention_type: 'compounded',
        event: 'Viewed page',
        unit: 'week',
        interval_count: 4,
      }),
    ).toEqual({ retention_type: 'compounded', event: 'Viewed page', unit: 'week', interval_count: 4 });
  });

  it('refuse birth retention without a born event, compounded with one, a bad count and a bad expression', () => {
    expect(refusal(() => validateRetentionDefinition({ ...birth, born_event: undefined }))).toEqual({
      status: 400,
      message: 'born_event is required for birth retention: the event that puts a user in a cohort',
    });
    expect(refusal(() => validateRetentionDefinition({ ...birth, retention_type: 'compounded' }))).toMatchObject({
      message: expect.stringMatching(/^born_event is for birth retention only/),
    });
    expect(refusal(() => validateRetentionDefinition({ ...birth, interval_count: 0 }))).toMatchObject({
      message: 'interval_count must be a whole number from 1 to 1000',
    });
    expect(refusal(() => validateRetentionDefinition({ ...birth, where: 'properties["plan"] ==' }))).toMatchObject({
      status: 400,
      message: expect.stringMatching(/^where: at position \d+/),
    });
  });
});
