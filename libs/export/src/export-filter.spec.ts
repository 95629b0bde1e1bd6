import { parseExpression, printExpression } from '@analytics/expression';
import { idsComparedWithDistinctId, readsDistinctId, withCanonicalIds } from './export-filter';

const canonical = new Map([
  ['$device:d1', 'carol'],
  ['$device:d2', 'dave'],
]);
const rewritten = (source: string) => printExpression(withCanonicalIds(parseExpression(source), canonical));

describe('the export filter on merged ids', () => {
  it('finds the ids compared with distinct_id, and only those', () => {
    const expression = parseExpression(
      'properties["distinct_id"] == "$device:d1" or "x" != properties["distinct_id"] or properties["distinct_id"] in ["$device:d2", 3] or "sub" in properties["distinct_id"] or properties["plan"] == "pro"',
    );
    expect(readsDistinctId(expression)).toBe(true);
    expect(idsComparedWithDistinctId(expression).sort()).toEqual(['$device:d1', '$device:d2', 'x']);
    expect(readsDistinctId(parseExpression('properties["plan"] == "$device:d1"'))).toBe(false);
  });

  it('replaces those ids by their canonical id, leaving every other literal as it is', () => {
    expect(rewritten('properties["distinct_id"] == "$device:d1"')).toBe('(properties["distinct_id"] == "carol")');
    expect(rewritten('not ("$device:d1" != properties["distinct_id"])')).toBe(
      '(not ("carol" != properties["distinct_id"]))',
    );
    expect(rewritten('properties["distinct_id"] in ["$device:d2", "other"]')).toBe(
      '(properties["distinct_id"] in ["dave", "other"])',
    );
    expect(rewritten('"$device:d1" in properties["distinct_id"]')).toBe('("$device:d1" in properties["distinct_id"])');
    expect(rewritten('properties["plan"] == "$device:d1" and properties["distinct_id"] == "unknown"')).toBe(
      '((properties["plan"] == "$device:d1") and (properties["distinct_id"] == "unknown"))',
    );
  });
});
