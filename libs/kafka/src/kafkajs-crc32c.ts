import { createRequire } from 'node:module';

/**
 * kafkajs 2.2.4 checksums every record batch it produces with CRC32C in byte-at-a-time JavaScript
 * (≈190 MB/s here: about a tenth of the gateway's CPU per event, docs/benchmarks.md, issue 21).
 * `@node-rs/crc32` computes the same checksum natively (SSE 4.2 / SIMD, over 2 GB/s). kafkajs
 * reads the function once, when its record-batch encoder module loads, through
 * `require('../crc32C')`: the encoder takes ours if the module's cache entry holds it first. This
 * runs when libs/kafka is imported, before any producer connects (kafkajs loads its produce
 * encoders on the first connection). Same module path, same output: a newer kafkajs without that
 * file leaves its own CRC in place, and so does a platform without the native package.
 */

/** The module kafkajs's record-batch encoder (`recordBatch/v0`) requires for its checksum. */
export const KAFKAJS_CRC32C_MODULE = 'kafkajs/src/protocol/recordBatch/crc32C/index.js';
const KAFKAJS_RECORD_BATCH_MODULE = 'kafkajs/src/protocol/recordBatch/v0/index.js';

export type Crc32c = (buffer: Buffer) => number;

/** Node's own module loader (a test runner's registry, as jest's, keeps kafkajs's CRC in its copies). */
const nodeRequire = createRequire(__filename);

/** The native CRC32C as kafkajs calls it (an unsigned 32-bit number), or undefined where the package has no build. */
export function nativeCrc32c(): Crc32c | undefined {
  try {
    const { crc32c } = nodeRequire('@node-rs/crc32') as { crc32c(input: Uint8Array): number };
    return (buffer) => crc32c(buffer) >>> 0;
  } catch {
    return undefined;
  }
}

export type Crc32cInstall = 'native' | 'kafkajs (no native build)' | 'kafkajs (encoder loaded first)' | 'kafkajs (module moved)';

/** Puts the native CRC32C in place of kafkajs's; says which one the encoder uses from now on. */
export function installNativeCrc32c(): Crc32cInstall {
  const crc = nativeCrc32c();
  if (!crc) return 'kafkajs (no native build)';
  let path: string;
  try {
    path = nodeRequire.resolve(KAFKAJS_CRC32C_MODULE);
  } catch {
    return 'kafkajs (module moved)';
  }
  if ((nodeRequire.cache[path]?.exports as { native?: boolean } | undefined)?.native) return 'native';
  // The encoder captured kafkajs's function when it loaded: too late to swap it.
  if (nodeRequire.cache[nodeRequire.resolve(KAFKAJS_RECORD_BATCH_MODULE)]) return 'kafkajs (encoder loaded first)';
  nodeRequire(path);
  nodeRequire.cache[path]!.exports = Object.assign(crc, { native: true });
  return 'native';
}

export const CRC32C_IN_USE: Crc32cInstall = installNativeCrc32c();
