import { projectScope } from '@analytics/tenancy';
import { ComplianceError } from './compliance-error';
import { MAX_DISTINCT_IDS, parseComplianceRequest } from './compliance-request';

const scope = { scope: projectScope(7), requestingUser: 'sa' };

describe('parseComplianceRequest', () => {
  it('defaults to GDPR and Data, drops repeated ids, keeps the project', () => {
    expect(parseComplianceRequest('retrieval', { distinct_ids: ['a', 'b', 'a'] }, scope)).toEqual({
      kind: 'retrieval',
      scope: projectScope(7),
      distinctIds: ['a', 'b'],
      complianceType: 'GDPR',
      disclosureType: 'Data',
      requestingUser: 'sa',
    });
  });

  it('reads form fields: a JSON list, or one id', () => {
    expect(
      parseComplianceRequest('deletion', { distinct_ids: '["a","b"]', compliance_type: 'CCPA' }, scope),
    ).toMatchObject({ distinctIds: ['a', 'b'], complianceType: 'CCPA' });
    expect(parseComplianceRequest('deletion', { distinct_ids: 'a' }, scope).distinctIds).toEqual(['a']);
  });

  it('allows Categories and Sources on CCPA retrievals only', () => {
    expect(
      parseComplianceRequest(
        'retrieval',
        { distinct_ids: ['a'], compliance_type: 'CCPA', disclosure_type: 'Sources' },
        scope,
      ).disclosureType,
    ).toBe('Sources');
    expect(() =>
      parseComplianceRequest('retrieval', { distinct_ids: ['a'], disclosure_type: 'Sources' }, scope),
    ).toThrow(ComplianceError);
    expect(() =>
      parseComplianceRequest(
        'deletion',
        { distinct_ids: ['a'], compliance_type: 'CCPA', disclosure_type: 'Data' },
        scope,
      ),
    ).toThrow(/unknown field/);
  });

  it.each([
    [undefined],
    [[]],
    [{ distinct_ids: [] }],
    [{ distinct_ids: Array.from({ length: MAX_DISTINCT_IDS + 1 }, (_, i) => `u${i}`) }],
    [{ distinct_ids: ['a', 2] }],
    [{ distinct_ids: [''] }],
    [{ distinct_ids: ['x'.repeat(256)] }],
    [{ distinct_ids: ['a'], compliance_type: 'gdpr' }],
  ])('refuses %j with 400', (body) => {
    expect(() => parseComplianceRequest('retrieval', body, scope)).toThrow(expect.objectContaining({ status: 400 }));
  });

  it('accepts exactly 2000 ids', () => {
    const ids = Array.from({ length: MAX_DISTINCT_IDS }, (_, i) => `u${i}`);
    expect(parseComplianceRequest('deletion', { distinct_ids: ids }, scope).distinctIds).toHaveLength(MAX_DISTINCT_IDS);
  });
});
