import { compileSegment, compileWhere } from './compile';
import { eventsScope, LookupSource, profilesScope } from './expression-scope';

const SONGS: LookupSource = {
  rows: 'SELECT key, row FROM lookup_table_rows WHERE project_id = {lk0p0:UInt32} AND table_id = {lk0p1:String}',
  params: { lk0p0: '7', lk0p1: 'songs' },
};

describe('lookup tables in expressions', () => {
  const scope = eventsScope({ lookups: { properties: { song_id: SONGS } } });

  it("reads a mapped property's column through its table: the rows as two arrays, the key mapped by transform", () => {
    const where = compileWhere('properties["song_id"]["genre"] == "Pop"', scope, { prefix: 'w' });
    expect(where.sql).toContain('transform(');
    expect(where.sql).toContain(`(SELECT groupArray(key) FROM (${SONGS.rows}))`);
    expect(where.sql).toContain('(SELECT groupArray(JSONExtractRaw(row, {w_1:String})) FROM (');
    // The column name and literals are bound; the table's own placeholders travel with them.
    expect(where.params).toEqual({ w_0: 'song_id', w_1: 'genre', w_2: 'Pop', lk0p0: '7', lk0p1: 'songs' });
  });

  it('leaves unmapped properties and the mapped property itself to the JSON, without the table', () => {
    for (const text of ['properties["other"]["genre"] == "Pop"', 'properties["song_id"] == "c994bb"']) {
      const where = compileWhere(text, scope, { prefix: 'w' });
      expect(where.sql).not.toContain('transform(');
      expect(Object.keys(where.params).some((name) => name.startsWith('lk'))).toBe(false);
    }
  });

  it('reads deeper keys into the looked-up value, and segments by it', () => {
    const on = compileSegment('properties["song_id"]["meta"]["year"]', scope, { prefix: 'on' });
    expect(on.sql).toMatch(/JSONExtractRaw\(\(?transform\(/);
    expect(on.params).toMatchObject({ on_1: 'meta', on_2: 'year' });
  });

  it('looks profile-mapped tables up from user["…"], and from both sources in the profile query', () => {
    const events = eventsScope({ userPropertiesJson: 'p.properties', lookups: { user: { plan: SONGS } } });
    expect(compileWhere('user["plan"]["tier"] == "paid"', events, { prefix: 'u' }).sql).toContain('transform(');
    expect(compileWhere('properties["plan"]["tier"] == "paid"', events, { prefix: 'u' }).sql).not.toContain(
      'transform(',
    );
    const profiles = profilesScope('properties', { plan: SONGS });
    for (const text of ['user["plan"]["tier"] == "paid"', 'properties["plan"]["tier"] == "paid"'])
      expect(compileWhere(text, profiles, { prefix: 'q' }).sql).toContain('transform(');
  });
});
