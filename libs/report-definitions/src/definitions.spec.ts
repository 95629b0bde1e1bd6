import { ReportsError } from './reports-error';
import { validateCohortDefinition } from './cohort-definition';
import { validateFunnelDefinition } from './funnel-definition';
import { validateInsightsParams } from './insights-definition';

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return { status: (error as ReportsError).status, message: (error as Error).message };
  }
  throw new Error('accepted');
};

describe('saved funnel definitions', () => {
  const funnel = { steps: [{ event: 'A' }, { event: 'B', where: '' }], length: 14, length_unit: 'day' as const };

  it('are stored without empty fields', () => {
    expect(validateFunnelDefinition({ ...funnel, where: '' })).toEqual({
      steps: [{ event: 'A' }, { event: 'B' }],
      length: 14,
      length_unit: 'day',
    });
  });

  it('refuse a window over 90 days, too few steps, and an expression that does not compile', () => {
    expect(refusal(() => validateFunnelDefinition({ ...funnel, length: 91 }))).toEqual({
      status: 400,
      message: 'length 91 day(s) is longer than 90 days',
    });
    expect(refusal(() => validateFunnelDefinition({ ...funnel, steps: [{ event: 'A' }] }))).toMatchObject({
      message: 'steps must hold 2 to 20 steps',
    });
    expect(
      refusal(() =>
        validateFunnelDefinition({ ...funnel, steps: [{ event: 'A' }, { event: 'B', where: 'properties["x"] ==' }] }),
      ),
    ).toMatchObject({
      status: 400,
      message: expect.stringMatching(/^steps\[1\]\.where: at position 18: expected/),
    });
    expect(refusal(() => validateFunnelDefinition({ ...funnel, where: 'user["plan"] == "pro"' }))).toMatchObject({
      message: expect.stringMatching(/^where: at position 0: expected an event property/),
    });
  });
});

describe('insights params', () => {
  it('need a property for property math and one way to give dates', () => {
    const events = [{ event: 'A', math: 'sum' as const }];
    expect(refusal(() => validateInsightsParams({ events, last_days: 7, unit: 'day' }))).toMatchObject({
      message: 'events[0].property is required with math "sum"',
    });
    expect(
      refusal(() => validateInsightsParams({ events: [{ event: 'A', math: 'total' }], unit: 'day' })),
    ).toMatchObject({ message: 'give from_date and to_date, or last_days' });
    expect(
      validateInsightsParams({
        events: [{ event: 'A', math: 'unique', property: 'ignored' }],
        last_days: 7,
        unit: 'week',
      }),
    ).toEqual({ events: [{ event: 'A', math: 'unique' }], last_days: 7, unit: 'week' });
  });
});

describe('cohort definitions', () => {
  it('are a profile expression or a behaviour, exactly one', () => {
    expect(validateCohortDefinition({ where: 'properties["$email"] != null' })).toEqual({
      where: 'properties["$email"] != null',
    });
    expect(refusal(() => validateCohortDefinition({}))).toMatchObject({
      message: 'definition needs exactly one of where (a profile expression) or behavior',
    });
    expect(
      refusal(() => validateCohortDefinition({ behavior: { event: 'A', min_count: 0, last_days: 7 } })),
    ).toMatchObject({ message: 'definition.behavior.min_count must be a whole number of at least 1' });
  });
});
