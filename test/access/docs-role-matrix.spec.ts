import { roleMatrixMarkdown } from '@analytics/auth';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

const ROLES_DOC = resolve(__dirname, '../../docs/roles.md');
const SECTION = /(<!-- role-matrix:start -->\n)[\s\S]*?(\n<!-- role-matrix:end -->)/;

/** docs/roles.md's role matrix is the code's: regenerate with UPDATE_ROLE_MATRIX=1. */
describe('docs/roles.md role matrix', () => {
  it('is the table the guards enforce', () => {
    const doc = readFileSync(ROLES_DOC, 'utf8');
    const expected = doc.replace(SECTION, (_, start: string, end: string) => `${start}${roleMatrixMarkdown()}${end}`);
    if (process.env.UPDATE_ROLE_MATRIX) writeFileSync(ROLES_DOC, expected);
    expect(SECTION.test(doc)).toBe(true);
    expect(doc).toBe(expected);
  });
});
