import { CompressionCodecs, CompressionTypes } from 'kafkajs';
import { platformaticKafka } from './publishing-client';

/**
 * kafkajs decodes gzip batches only; the gateway may compress with snappy, lz4 or zstd
 * (KAFKA_COMPRESSION), so the writers' kafkajs consumers (and dead-letter replay) read those with
 * @platformatic/kafka's own codecs: the ones the gateway encodes with (zstd from Node's zlib, snappy and
 * lz4 in WebAssembly, no native add-on). Loaded on the first batch that needs one.
 */
const CODECS = {
  [CompressionTypes.Snappy]: 'snappy',
  [CompressionTypes.LZ4]: 'lz4',
  [CompressionTypes.ZSTD]: 'zstd',
} as const;

for (const [type, name] of Object.entries(CODECS)) {
  CompressionCodecs[Number(type) as keyof typeof CompressionCodecs] = () => {
    const codec = platformaticKafka().compressionsAlgorithms[name];
    return {
      compress: async (encoder: { buffer: Buffer }) => codec.compressSync(encoder.buffer),
      decompress: async (buffer: Buffer) => codec.decompressSync(buffer),
    };
  };
}

/** Imported for its effect (createKafka does). */
export const KAFKAJS_CODECS = Object.values(CODECS);
