import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ts from 'typescript';
import { sourceFiles } from './source-files';

/**
 * What test/architecture/project-scope.spec.ts and tenant-predicate.spec.ts read: the source files
 * of every lib and app (not specs), parsed, so that a check sees imports and casts, not text that
 * merely looks like them.
 */

/** The lib that makes scopes and writes the predicate: the only place both may be written by hand. */
const TENANCY_SRC = 'libs/tenancy/src/';

/** Every lib's and app's source files under `root` (specs left out), but the tenancy lib's. */
export const scopedSourceFiles = (root: string): string[] =>
  sourceFiles(root).filter((file) => !file.startsWith(TENANCY_SRC));

export function parse(root: string, file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(join(root, file), 'utf8'), ts.ScriptTarget.Latest, true);
}

const TENANCY = '@analytics/tenancy';

function isTenancyCall(node: ts.Node): boolean {
  if (!ts.isCallExpression(node) || node.arguments.length === 0 || !ts.isStringLiteralLike(node.arguments[0]))
    return false;
  const callee = node.expression;
  const named = (ts.isIdentifier(callee) && callee.text === 'require') || callee.kind === ts.SyntaxKind.ImportKeyword;
  return named && node.arguments[0].text === TENANCY;
}

/**
 * How a file can create a scope or forge one: a named import (or re-export) of `projectScope`, the
 * whole lib as a namespace or through `require`/`import()` (which reach it by any name), and a
 * cast to `ProjectScope`.
 */
export function scopeCreations(file: ts.SourceFile): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      // `import '…'` and a default import (the lib has none) reach nothing; `export * from` reaches all.
      const bindings = ts.isImportDeclaration(node) ? node.importClause?.namedBindings : (node.exportClause ?? 'all');
      if (node.moduleSpecifier.text === TENANCY && bindings) {
        if (bindings === 'all' || ts.isNamespaceImport(bindings) || ts.isNamespaceExport(bindings))
          found.push(`takes all of ${TENANCY}`);
        else if (bindings.elements.some((element) => (element.propertyName ?? element.name).text === 'projectScope'))
          found.push('imports projectScope');
      }
    }
    if (isTenancyCall(node)) found.push(`loads ${TENANCY} dynamically`);
    if (
      (ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) &&
      ts.isTypeReferenceNode(node.type) &&
      node.type.typeName.getText() === 'ProjectScope'
    ) {
      found.push('casts to ProjectScope');
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return [...new Set(found)];
}

/** `file: what it does` for every file outside `allowed` that can create a scope. */
export function scopeCreatorsOutside(root: string, allowed: readonly string[]): string[] {
  return scopedSourceFiles(root).flatMap((path) => {
    const file = parse(root, path);
    const creations = scopeCreations(file).filter(
      (what) => what === 'casts to ProjectScope' || !allowed.includes(path),
    );
    return creations.map((what) => `${path}: ${what}`);
  });
}

/** A tenant predicate: `project_id =`, `project_id IN …`, `project_id in (`, any case, on any table alias. */
const PREDICATE = /\bproject_id\s*(=|\bin\b)/gi;
/** Schema files create the column; they never filter on it. */
const SCHEMA = /\/migrations\//;

/**
 * `file:line: text` for each string or template text in a lib's source that writes the tenant
 * predicate by hand, instead of through a ProjectScope in `chSql`/`pgSql` (libs/tenancy). Comments
 * are not read; specs, migrations and libs/tenancy itself are left out.
 */
export function handWrittenPredicates(root: string): string[] {
  return scopedSourceFiles(root)
    .filter((path) => path.startsWith('libs/') && !SCHEMA.test(path))
    .flatMap((path) => {
      const file = parse(root, path);
      const found: string[] = [];
      const visit = (node: ts.Node) => {
        if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) {
          const start = file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;
          for (const match of node.text.matchAll(PREDICATE)) {
            const line = start + node.text.slice(0, match.index).split('\n').length - 1;
            found.push(`${path}:${line}: ${node.text.slice(match.index).split('\n')[0].slice(0, 60).trim()}`);
          }
        }
        ts.forEachChild(node, visit);
      };
      visit(file);
      return found;
    });
}
