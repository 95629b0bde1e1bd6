/** The oldest Node.js major the platform runs on (package.json's `engines`). */
export const REQUIRED_NODE_MAJOR = 24;

/**
 * Built-ins the code calls without a fallback: ingestion writes stored JSON through JSON.rawJSON
 * (V8 12+), so an older Node starts fine and then fails every request.
 */
const REQUIRED_FEATURES: ReadonlyArray<readonly [string, (json: JSON) => boolean]> = [
  ['JSON.rawJSON', (json) => typeof (json as { rawJSON?: unknown }).rawJSON === 'function'],
  ['JSON.isRawJSON', (json) => typeof (json as { isRawJSON?: unknown }).isRawJSON === 'function'],
];

export interface NodeRuntime {
  /** `process.version`, e.g. v24.21.0. */
  version: string;
  /** `process.execPath`. */
  execPath: string;
  json: JSON;
}

/** Why this Node cannot run the platform, in one line; undefined when it can. */
export function unsupportedNodeReason(runtime: NodeRuntime): string | undefined {
  const major = Number(/^v(\d+)\./.exec(runtime.version)?.[1] ?? 0);
  const missing = REQUIRED_FEATURES.filter(([, present]) => !present(runtime.json)).map(([name]) => name);
  if (major >= REQUIRED_NODE_MAJOR && !missing.length) return undefined;
  const lacks = missing.length ? ` (it lacks ${missing.join(' and ')})` : '';
  return (
    `This platform needs Node.js ${REQUIRED_NODE_MAJOR} or later, but was started with Node.js ${runtime.version} ` +
    `at ${runtime.execPath}${lacks}: run it through npm (npm start), or with node_modules/.bin/node.`
  );
}

/**
 * The first thing every app's main does: on an unsupported Node, one clear line on stderr and
 * exit code 1, before anything starts listening or consuming.
 */
export function exitUnlessSupportedNode(): void {
  const reason = unsupportedNodeReason({ version: process.version, execPath: process.execPath, json: JSON });
  if (reason === undefined) return;
  process.stderr.write(`${reason}\n`);
  process.exit(1);
}
