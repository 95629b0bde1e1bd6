import { EXPORT_PARAMETERS, parseExportRequest } from './export-request';

/** Remembers every name the parser reads. */
class ReadNames extends URLSearchParams {
  readonly names = new Set<string>();
  override get(name: string): string | null {
    this.names.add(name);
    return super.get(name);
  }
}

describe('the raw export parameters in the OpenAPI document', () => {
  it('accepts every documented example and reads no parameter the document leaves out', () => {
    const params = new ReadNames(
      EXPORT_PARAMETERS.filter((p) => p.example !== undefined).map((p): [string, string] => [p.name, p.example!]),
    );
    expect(parseExportRequest(params, '2026-12-31')).toMatchObject({
      limit: 1000,
      timeInMs: true,
      events: ['Signed up', 'Purchased'],
    });
    const documented = new Set(EXPORT_PARAMETERS.map((p) => p.name));
    expect([...params.names].filter((name) => !documented.has(name))).toEqual([]);
  });
});
