import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Bytes a topic's partitions hold in a broker's log directory: the sum of their segment files
 * (`<topic>-<partition>/*.log`; the index files are preallocated and say nothing of the data). What
 * the retention must hold, per replica, as the producer wrote it (compressed or not).
 */
export function topicLogBytes(logDir: string, topic: string): number {
  const partition = new RegExp(`^${topic.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-\\d+$`);
  let bytes = 0;
  for (const directory of readdirSync(logDir).filter((name) => partition.test(name))) {
    for (const file of readdirSync(join(logDir, directory)).filter((name) => name.endsWith('.log')))
      bytes += statSync(join(logDir, directory, file)).size;
  }
  return bytes;
}
