import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');

/** README.md and every Markdown file under docs/, as paths relative to the repository. */
function documentationFiles(): string[] {
  const walk = (directory: string): string[] =>
    readdirSync(join(ROOT, directory), { withFileTypes: true }).flatMap((entry) => {
      const path = join(directory, entry.name);
      if (entry.isDirectory()) return walk(path);
      return entry.name.endsWith('.md') ? [path] : [];
    });
  return ['README.md', ...walk('docs')];
}

/**
 * The link targets of a Markdown text: inline links and images, reference definitions, HTML `href`
 * and `src`. Code (fenced blocks and inline spans) is left out: a path shown as code is not a link.
 */
function linkTargets(markdown: string): string[] {
  const text = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/(`+)[\s\S]*?\1/g, 'code');
  const inline = [...text.matchAll(/\]\(\s*<?([^()\s<>]+(?:\([^()\s]*\)[^()\s<>]*)*)>?(?:\s+["'][^"']*["'])?\s*\)/g)].map((m) => m[1]);
  const references = [...text.matchAll(/^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((m) => m[1]);
  const html = [...text.matchAll(/\b(?:href|src)\s*=\s*"([^"]+)"/g)].map((m) => m[1]);
  return [...inline, ...references, ...html];
}

/** Why a link in `file` (relative to the repository) cannot be followed by a reader of the repository, if it cannot. */
function linkProblem(file: string, target: string, root = ROOT): string | undefined {
  if (/^https?:\/\//i.test(target) || /^mailto:/i.test(target) || target.startsWith('#')) return undefined;
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return `${file}: ${target} is neither a relative link nor http(s)`;
  const path = decodeURI(target.replace(/[#?].*$/, ''));
  if (isAbsolute(path)) return `${file}: ${target} is an absolute path; link relative to the file`;
  const resolved = resolve(root, dirname(file), path);
  const inside = relative(root, resolved);
  if (inside.startsWith('..') || isAbsolute(inside)) return `${file}: ${target} leaves the repository`;
  if (!existsSync(resolved)) return `${file}: ${target} names ${inside}, which does not exist`;
  return undefined;
}

describe('documentation links', () => {
  it('reads links, images, references and HTML, and skips code', () => {
    const markdown = [
      'See [settings](docs/settings.md#ports), ![a picture](img/a.png "title") and [the spec][spec].',
      '`[not a link](nowhere.md)` and <a href="docs/api.md">api</a>.',
      '```md',
      '[in a code block](missing.md)',
      '```',
      '[spec]: ../shared/spec.md',
    ].join('\n');
    expect(linkTargets(markdown)).toEqual(['docs/settings.md#ports', 'img/a.png', '../shared/spec.md', 'docs/api.md']);
  });

  it('refuses links out of the repository, absolute paths, missing files and other schemes', () => {
    expect(linkProblem('README.md', '../shared/DESIGN.md')).toMatch(/leaves the repository/);
    expect(linkProblem('docs/api.md', '../../shared/spec/analytics-api.md')).toMatch(/leaves the repository/);
    expect(linkProblem('README.md', '/work/shared/STYLE.md')).toMatch(/absolute path/);
    expect(linkProblem('README.md', 'docs/no-such-page.md')).toMatch(/does not exist/);
    expect(linkProblem('README.md', 'file:///etc/passwd')).toMatch(/neither a relative link nor http/);
    expect(linkProblem('docs/benchmarks.md', 'benchmarks/')).toBeUndefined();
    expect(linkProblem('docs/api.md', '../README.md#quick-start')).toBeUndefined();
    expect(linkProblem('README.md', 'https://example.com/x')).toBeUndefined();
    expect(linkProblem('README.md', '#quick-start')).toBeUndefined();
  });

  it('README.md and docs/**/*.md link only to files inside the repository', () => {
    const files = documentationFiles();
    expect(files).toEqual(expect.arrayContaining(['README.md', 'docs/benchmarks.md']));
    const problems = files.flatMap((file) =>
      linkTargets(readFileSync(join(ROOT, file), 'utf8')).flatMap((target) => linkProblem(file, target) ?? []),
    );
    expect(problems).toEqual([]);
  });
});
