import { roleMatrixMarkdown } from '@analytics/auth';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

const README = resolve(__dirname, '../../README.md');
const SECTION = /(<!-- role-matrix:start -->\n)[\s\S]*?(\n<!-- role-matrix:end -->)/;

/** README's role matrix is the code's: regenerate with UPDATE_README=1. */
describe('README role matrix', () => {
  it('is the table the guards enforce', () => {
    const readme = readFileSync(README, 'utf8');
    const expected = readme.replace(SECTION, (_, start: string, end: string) => `${start}${roleMatrixMarkdown()}${end}`);
    if (process.env.UPDATE_README) writeFileSync(README, expected);
    expect(SECTION.test(readme)).toBe(true);
    expect(readme).toBe(expected);
  });
});
