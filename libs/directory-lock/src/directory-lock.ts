import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

export class DirectoryInUseError extends Error {
  constructor(
    readonly directory: string,
    readonly pid: number,
  ) {
    super(
      `The data directory ${directory} is already open in process ${pid}. ` +
        'Embedded engines let one process at a time open their directory: stop that process, ' +
        'or give this one its own DATA_DIR.',
    );
    this.name = 'DirectoryInUseError';
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A pid file beside the directory, taken before an embedded engine opens it. PGlite does not stop a
 * second process from opening its files (two writers would corrupt them) and chDB's own refusal
 * names neither the directory nor the holder. A lock left by a dead process is taken over.
 */
export function lockDirectory(directory: string): () => void {
  const lockPath = `${directory}.lock`;
  mkdirSync(dirname(lockPath), { recursive: true });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(lockPath, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(readFileSync(lockPath, 'utf8').trim());
      if (holder && holder !== process.pid && isAlive(holder)) throw new DirectoryInUseError(directory, holder);
      rmSync(lockPath, { force: true });
    }
  }
  throw new Error(`Could not lock ${directory}`);
}
