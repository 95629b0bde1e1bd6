import { isProjectScope, ProjectScope, projectScope } from './project-scope';

describe('projectScope', () => {
  it('carries the project id', () => {
    expect(projectScope(42).projectId).toBe(42);
    expect(isProjectScope(projectScope(42))).toBe(true);
  });

  it('is not made by a literal, nor by an object that looks like one', () => {
    // @ts-expect-error the brand's key is a symbol no other file can name
    const forged: ProjectScope = { projectId: 42 };

    expect(isProjectScope(forged)).toBe(false);
    expect(isProjectScope({ projectId: 42, [Symbol('ProjectScope')]: true })).toBe(false);
  });

  it('cannot be changed once made', () => {
    const scope = projectScope(1);

    expect(() => ((scope as { projectId: number }).projectId = 2)).toThrow(TypeError);
  });

  it('holds only an id both engines can store', () => {
    expect(() => projectScope(-1)).toThrow(RangeError);
    expect(() => projectScope(1.5)).toThrow(RangeError);
    expect(() => projectScope(2 ** 32)).toThrow(RangeError);
    expect(() => projectScope(Number.NaN)).toThrow(RangeError);
  });

  it('carries the project event retention, whole days from 1 to 36,500 or none', () => {
    expect(projectScope(1).eventsRetentionDays).toBeNull();
    expect(projectScope(1, 30).eventsRetentionDays).toBe(30);
    expect(projectScope(1, 36_500).eventsRetentionDays).toBe(36_500);
    expect(() => projectScope(1, 0)).toThrow(/1 to 36500, got 0/);
    expect(() => projectScope(1, 36_501)).toThrow(RangeError);
    expect(() => projectScope(1, 1.5)).toThrow(RangeError);
  });

  it('carries the project time zone, UTC unless given, refusing what is no zone name', () => {
    expect(projectScope(1).timeZone).toBe('UTC');
    expect(projectScope(1, null, 'Europe/Berlin').timeZone).toBe('Europe/Berlin');
    expect(projectScope(1, null, 'Etc/GMT+5').timeZone).toBe('Etc/GMT+5');
    expect(() => projectScope(1, null, "UTC') OR 1")).toThrow(RangeError);
    expect(() => projectScope(1, null, '')).toThrow(RangeError);
  });
});
