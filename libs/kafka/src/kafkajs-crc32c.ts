import { createRequire } from 'node:module';

/**
 * kafkajs 2.2.4 checksums every record batch it produces with CRC32C in byte-at-a-time JavaScript
 * (≈180 MB/s here: about a tenth of the gateway's CPU per event,
 * docs/benchmarks/2026-11-24-issue-21-gateway-and-broker.md).
 * `@node-rs/crc32` computes the same checksum natively (over 2 GB/s); where its prebuilt binary is
 * not installed (an unsupported platform, or an install that omits optional packages, as the
 * cluster image does), a slicing-by-8 JavaScript version (≈770 MB/s) stands in. kafkajs reads the
 * function once, when its record-batch encoder module loads, through `require('../crc32C')`: the
 * encoder takes ours if that module's cache entry holds it first. This runs when libs/kafka is
 * imported, before any producer connects (kafkajs loads its produce encoders on the first
 * connection). A kafkajs without that file keeps its own CRC.
 */

/** The module kafkajs's record-batch encoder (`recordBatch/v0`) requires for its checksum. */
export const KAFKAJS_CRC32C_MODULE = 'kafkajs/src/protocol/recordBatch/crc32C/index.js';
const KAFKAJS_RECORD_BATCH_MODULE = 'kafkajs/src/protocol/recordBatch/v0/index.js';

/** CRC32C as kafkajs calls it: an unsigned 32-bit number. */
export type Crc32c = (buffer: Buffer) => number;

/** Node's own module loader (a test runner's registry, as jest's, keeps kafkajs's CRC in its copies). */
const nodeRequire = createRequire(__filename);

/** Eight 256-entry tables for the reflected Castagnoli polynomial: table t advances a byte through t more zero bytes. */
const TABLES = (() => {
  const tables = new Int32Array(8 * 256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0x82f63b78 : c >>> 1;
    tables[n] = c;
  }
  for (let t = 1; t < 8; t++) {
    for (let n = 0; n < 256; n++) {
      const previous = tables[(t - 1) * 256 + n];
      tables[t * 256 + n] = (previous >>> 8) ^ tables[previous & 0xff];
    }
  }
  return tables;
})();

/** CRC32C eight bytes a step (slicing-by-8), four times kafkajs's speed. */
export function crc32cSlicing8(buffer: Buffer): number {
  const t = TABLES;
  let crc = -1;
  let i = 0;
  const whole = buffer.length - (buffer.length & 7);
  for (; i < whole; i += 8) {
    const word = crc ^ (buffer[i] | (buffer[i + 1] << 8) | (buffer[i + 2] << 16) | (buffer[i + 3] << 24));
    crc =
      t[1792 + (word & 0xff)] ^
      t[1536 + ((word >>> 8) & 0xff)] ^
      t[1280 + ((word >>> 16) & 0xff)] ^
      t[1024 + (word >>> 24)] ^
      t[768 + buffer[i + 4]] ^
      t[512 + buffer[i + 5]] ^
      t[256 + buffer[i + 6]] ^
      t[buffer[i + 7]];
  }
  for (; i < buffer.length; i++) crc = t[(crc ^ buffer[i]) & 0xff] ^ (crc >>> 8);
  return (crc ^ -1) >>> 0;
}

/** The native CRC32C, or undefined where its prebuilt binary is not installed. */
export function nativeCrc32c(): Crc32c | undefined {
  try {
    const { crc32c } = nodeRequire('@node-rs/crc32') as { crc32c(input: Uint8Array): number };
    return (buffer) => crc32c(buffer) >>> 0;
  } catch {
    return undefined;
  }
}

export type Crc32cInstall = 'native' | 'slicing-by-8' | 'kafkajs (encoder loaded first)' | 'kafkajs (module moved)';

/** Puts the fastest CRC32C at hand in place of kafkajs's; says which one its encoder uses from now on. */
export function installCrc32c(): Crc32cInstall {
  let path: string;
  try {
    path = nodeRequire.resolve(KAFKAJS_CRC32C_MODULE);
  } catch {
    return 'kafkajs (module moved)';
  }
  const installed = (nodeRequire.cache[path]?.exports as { install?: Crc32cInstall } | undefined)?.install;
  if (installed) return installed;
  // The encoder captured kafkajs's function when it loaded: too late to swap it.
  if (nodeRequire.cache[nodeRequire.resolve(KAFKAJS_RECORD_BATCH_MODULE)]) return 'kafkajs (encoder loaded first)';
  const native = nativeCrc32c();
  const install: Crc32cInstall = native ? 'native' : 'slicing-by-8';
  nodeRequire(path);
  const chosen: Crc32c = native ?? ((buffer) => crc32cSlicing8(buffer));
  nodeRequire.cache[path]!.exports = Object.assign(chosen, { install });
  return install;
}

export const CRC32C_IN_USE: Crc32cInstall = installCrc32c();
