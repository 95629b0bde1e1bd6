#!/usr/bin/env node
// Prints the architecture figures of issue 35 from dependency-cruiser's own JSON report: the libs,
// the longest chain of lib-to-lib imports, the names each lib's index.ts exports and how many of
// them are used outside the lib, and the libs under 100 lines.
//
//   npm run arch:report                      cruises apps, libs, bench and test itself
//   node scripts/architecture-report.js cruise.json [--json]
//                                            reads a saved `depcruise … --output-type json` report
//
// Lib-to-lib imports are those of a lib's source (libs/<lib>/src, specs left out): its tests and
// test helpers may use any lib. A name counts as used outside its lib when a module outside
// libs/<lib>/ (another lib, an app, bench/ or test/) imports it from `@analytics/<lib>`, statically
// or through `import()`.
const { spawnSync } = require('node:child_process');
const { readFileSync } = require('node:fs');
const { join, resolve } = require('node:path');
const ts = require('typescript');

const ROOT = resolve(__dirname, '..');
const SPEC = /\.(spec|int-spec|e2e-spec)\.ts$/;
const SMALL_LIB_LINES = 100;

const libOfSource = (path) => /^libs\/([^/]+)\/src\//.exec(path)?.[1];
const appOfSource = (path) => /^apps\/([^/]+)\/src\//.exec(path)?.[1];
const libFolderOf = (path) => /^libs\/([^/]+)\//.exec(path)?.[1];
const indexLibOf = (path) => /^libs\/([^/]+)\/src\/index\.ts$/.exec(path ?? '')?.[1];

function parse(root, path) {
  return ts.createSourceFile(
    path,
    readFileSync(join(root, path), 'utf8'),
    ts.ScriptTarget.Latest,
    true,
    ts.ScriptKind.TS,
  );
}

/** The names a lib's index.ts exports. */
function exportedNames(file) {
  const names = [];
  for (const statement of file.statements) {
    if (ts.isExportDeclaration(statement)) {
      if (statement.exportClause && ts.isNamedExports(statement.exportClause)) {
        for (const element of statement.exportClause.elements) names.push(element.name.text);
      } else {
        names.push(`* from ${statement.moduleSpecifier?.getText(file)}`);
      }
    } else if (ts.getCombinedModifierFlags(statement) & ts.ModifierFlags.Export) {
      if (ts.isVariableStatement(statement)) {
        for (const declaration of statement.declarationList.declarations) names.push(declaration.name.getText(file));
      } else if (statement.name) {
        names.push(statement.name.text);
      }
    }
  }
  return names;
}

const bindingNames = (pattern) =>
  ts.isObjectBindingPattern(pattern)
    ? pattern.elements.map((element) => (element.propertyName ?? element.name).getText())
    : undefined;

/** Follows `await` and parentheses up from an expression to the variable it initialises, if any. */
function declarationAround(node) {
  let current = node.parent;
  while (current && (ts.isAwaitExpression(current) || ts.isParenthesizedExpression(current))) current = current.parent;
  return current && ts.isVariableDeclaration(current) ? current : undefined;
}

/**
 * The names one `import('<specifier>')` takes: `const { A } = await import(…)`,
 * `const [{ A }, { B }] = await Promise.all([import(…), import(…)])`, `(await import(…)).A`.
 */
function namesOfDynamicImport(call) {
  let outer = call.parent;
  while (ts.isAwaitExpression(outer) || ts.isParenthesizedExpression(outer)) outer = outer.parent;
  if (ts.isPropertyAccessExpression(outer)) return [outer.name.text];
  const direct = declarationAround(call);
  if (direct) return bindingNames(direct.name);
  if (ts.isArrayLiteralExpression(call.parent)) {
    const index = call.parent.elements.indexOf(call);
    const all = call.parent.parent;
    const declaration = ts.isCallExpression(all) ? declarationAround(all) : undefined;
    if (declaration && ts.isArrayBindingPattern(declaration.name)) {
      const element = declaration.name.elements[index];
      return element && ts.isBindingElement(element) ? bindingNames(element.name) : undefined;
    }
  }
  return undefined;
}

/** The names a module takes from one import specifier, or throws if a use of it cannot be read. */
function importedNames(file, specifier) {
  const names = new Set();
  const visit = (node) => {
    const moduleOf = (node) =>
      node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier) && node.moduleSpecifier.text;
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && moduleOf(node) === specifier) {
      const clause = ts.isImportDeclaration(node) ? node.importClause?.namedBindings : node.exportClause;
      if (clause && (ts.isNamedImports(clause) || ts.isNamedExports(clause))) {
        for (const element of clause.elements) names.add((element.propertyName ?? element.name).text);
      } else if (clause || node.importClause?.name) {
        throw new Error(
          `${file.fileName}: reads '${specifier}' as a whole (namespace or default import); name the imports`,
        );
      }
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      if (argument && ts.isStringLiteral(argument) && argument.text === specifier) {
        const taken = namesOfDynamicImport(node);
        if (!taken)
          throw new Error(`${file.fileName}: an import('${specifier}') whose names cannot be read; destructure it`);
        for (const name of taken) names.add(name);
      }
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      node.argument.literal.text === specifier
    ) {
      if (!node.qualifier) throw new Error(`${file.fileName}: typeof import('${specifier}') as a whole; name the type`);
      names.add(ts.isIdentifier(node.qualifier) ? node.qualifier.text : node.qualifier.left.getText(file));
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return names;
}

/** The longest path from `lib` down the lib graph (ties broken by name, so the answer is stable). */
function longestChains(graph) {
  const memo = new Map();
  const longest = (lib, path = []) => {
    if (memo.has(lib)) return memo.get(lib);
    if (path.includes(lib)) throw new Error(`libs import each other in a cycle: ${[...path, lib].join(' → ')}`);
    let best = [lib];
    for (const next of [...(graph.get(lib) ?? [])].sort()) {
      const chain = [lib, ...longest(next, [...path, lib])];
      if (chain.length > best.length) best = chain;
    }
    memo.set(lib, best);
    return best;
  };
  return [...graph.keys()].sort().map((lib) => longest(lib));
}

/**
 * The figures from a dependency-cruiser report (`--output-type json`) of the repository at `root`.
 * Each lib's entry lists its exports, which of them are used outside it and by which modules.
 */
function architectureFigures(cruise, root = ROOT) {
  const libs = new Map();
  const libNamed = (name) => {
    if (!libs.has(name)) libs.set(name, { name, lines: 0, imports: new Set(), exports: [], usedBy: new Map() });
    return libs.get(name);
  };
  for (const module of cruise.modules) {
    const lib = libOfSource(module.source);
    if (!lib || SPEC.test(module.source)) continue;
    const entry = libNamed(lib);
    entry.lines += readFileSync(join(root, module.source), 'utf8').split('\n').length - 1;
    for (const dependency of module.dependencies) {
      const target = libOfSource(dependency.resolved ?? '');
      if (target && target !== lib) entry.imports.add(target);
    }
  }
  for (const entry of libs.values()) entry.exports = exportedNames(parse(root, `libs/${entry.name}/src/index.ts`));
  for (const module of cruise.modules) {
    if (!/\.ts$/.test(module.source)) continue;
    let file;
    for (const dependency of module.dependencies) {
      const lib = indexLibOf(dependency.resolved);
      if (!lib || libFolderOf(module.source) === lib || !libs.has(lib)) continue;
      file ??= parse(root, module.source);
      for (const name of importedNames(file, dependency.module)) {
        const usedBy = libs.get(lib).usedBy;
        if (!usedBy.has(name)) usedBy.set(name, []);
        usedBy.get(name).push(module.source);
      }
    }
  }
  const graph = new Map([...libs.values()].map((entry) => [entry.name, entry.imports]));
  const chain = longestChains(graph).reduce((best, chain) => (chain.length > best.length ? chain : best), []);
  // An app on top of its libs: the chain a deployable stands on (the count of 12 included it).
  for (const module of cruise.modules) {
    const app = appOfSource(module.source);
    if (!app || SPEC.test(module.source)) continue;
    if (!graph.has(`apps/${app}`)) graph.set(`apps/${app}`, new Set());
    for (const dependency of module.dependencies) {
      const lib = libOfSource(dependency.resolved ?? '');
      if (lib) graph.get(`apps/${app}`).add(lib);
    }
  }
  const appChain = longestChains(graph).reduce((best, chain) => (chain.length > best.length ? chain : best), []);
  const list = [...libs.values()].sort((a, b) => a.name.localeCompare(b.name));
  return {
    libs: list.map(({ name, lines, imports, exports, usedBy }) => ({
      name,
      lines,
      imports: [...imports].sort(),
      exports,
      unused: exports.filter((name) => !usedBy.has(name)),
      usedBy: Object.fromEntries([...usedBy].sort(([a], [b]) => a.localeCompare(b))),
    })),
    chain,
    appChain,
  };
}

function cruiseRepository() {
  const depcruise = join(ROOT, 'node_modules/.bin/depcruise');
  const args = ['apps', 'libs', 'bench', 'test', '--config', '.dependency-cruiser.cjs', '--output-type', 'json'];
  const result = spawnSync(depcruise, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 30 });
  if (result.status !== 0) throw new Error(`depcruise failed (${result.status}): ${result.stderr}`);
  return JSON.parse(result.stdout);
}

function printReport({ libs, chain, appChain }) {
  const exported = libs.reduce((sum, lib) => sum + lib.exports.length, 0);
  const unused = libs.reduce((sum, lib) => sum + lib.unused.length, 0);
  const small = libs.filter((lib) => lib.lines < SMALL_LIB_LINES);
  const lines = [
    `libs: ${libs.length}`,
    `longest chain of lib imports: ${chain.length} libs`,
    `  ${chain.join(' → ')}`,
    `longest chain from an app: ${appChain.length} (${appChain[0]} on ${appChain.length - 1} libs)`,
    `exports from index.ts: ${exported}, used outside their lib: ${exported - unused}, unused outside: ${unused}`,
    `libs under ${SMALL_LIB_LINES} lines (src, specs left out): ${small.length}`,
    ...small.map((lib) => `  ${lib.name} (${lib.lines})`),
    '',
    'per lib: lines, exports used outside / exported, names used only inside',
    ...libs.map(
      (lib) =>
        `  ${lib.name.padEnd(20)} ${String(lib.lines).padStart(5)}  ${lib.exports.length - lib.unused.length}/${lib.exports.length}` +
        (lib.unused.length ? `  ${lib.unused.join(', ')}` : ''),
    ),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

if (require.main === module) {
  const args = process.argv.slice(2);
  const input = args.find((arg) => !arg.startsWith('--'));
  const figures = architectureFigures(input ? JSON.parse(readFileSync(input, 'utf8')) : cruiseRepository());
  if (args.includes('--json')) process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
  else printReport(figures);
}

module.exports = { architectureFigures, cruiseRepository, exportedNames, importedNames };
