import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { CRC32C_IN_USE, crc32cSlicing8, KAFKAJS_CRC32C_MODULE, nativeCrc32c } from './kafkajs-crc32c';

// Node's own loader, where the services load kafkajs (jest's registry keeps copies of its own).
const nodeRequire = createRequire(__filename);
/** kafkajs's byte-at-a-time CRC32C: the reference. */
const reference = nodeRequire('kafkajs/src/protocol/recordBatch/crc32C/crc32C.js') as (buffer: Buffer) => number;

describe('CRC32C for kafkajs', () => {
  it.each([
    ['native', nativeCrc32c()!],
    ['slicing-by-8', crc32cSlicing8],
  ])(
    '%s: computes the check value and agrees with kafkajs on many inputs, slices of shared memory included',
    (_name, crc) => {
      expect(crc(Buffer.from('123456789'))).toBe(0xe3069283);
      expect(crc(Buffer.alloc(0))).toBe(0);
      const pool = randomBytes(1 << 20);
      for (let i = 0; i < 2_000; i++) {
        const length = i < 100 ? i : Math.floor(Math.random() ** 3 * 200_000);
        const start = Math.floor(Math.random() * (pool.length - length));
        // Buffers that start inside a larger ArrayBuffer, as kafkajs's encoders hand them over.
        const input = pool.subarray(start, start + length);
        expect(crc(input)).toBe(reference(input));
      }
      const high = Buffer.alloc(4096, 0xff);
      expect(crc(high)).toBe(reference(high));
    },
  );

  it("is the checksum kafkajs's record-batch encoder writes", async () => {
    // This machine has the native build; an install without it gets slicing-by-8.
    expect(CRC32C_IN_USE).toBe('native');
    expect((nodeRequire(KAFKAJS_CRC32C_MODULE) as { install?: string }).install).toBe('native');
    const { RecordBatch } = nodeRequire('kafkajs/src/protocol/recordBatch/v0/index.js');
    const Record = nodeRequire('kafkajs/src/protocol/recordBatch/record/v0/index.js');
    const records = Array.from({ length: 50 }, (_, i) => Record({ offsetDelta: i, value: randomBytes(1000 + i) }));
    const batch: Buffer = (await RecordBatch({ records, lastOffsetDelta: 49 })).buffer;
    // firstOffset (8), batch length (4), partitionLeaderEpoch (4), magic (1), CRC (4), then the checked bytes.
    expect(batch.readUInt32BE(17)).toBe(reference(batch.subarray(21)));
  });
});
