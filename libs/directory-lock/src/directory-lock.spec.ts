import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DirectoryInUseError, lockDirectory } from './directory-lock';

describe('lockDirectory', () => {
  let root: string;
  beforeEach(() => (root = mkdtempSync(join(tmpdir(), 'lock-'))));
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('records our pid beside the directory and releases it', () => {
    const release = lockDirectory(join(root, 'engine'));
    expect(readFileSync(join(root, 'engine.lock'), 'utf8')).toBe(String(process.pid));
    release();
    expect(existsSync(join(root, 'engine.lock'))).toBe(false);
  });

  it('refuses while another live process holds it, naming the directory and the process', async () => {
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    try {
      writeFileSync(join(root, 'engine.lock'), String(holder.pid));
      expect(() => lockDirectory(join(root, 'engine'))).toThrow(DirectoryInUseError);
      expect(() => lockDirectory(join(root, 'engine'))).toThrow(
        `The data directory ${join(root, 'engine')} is already open in process ${holder.pid}`,
      );
    } finally {
      holder.kill('SIGKILL');
      await new Promise((resolve) => holder.once('exit', resolve));
    }
  });

  it('takes over a lock left by a process that is gone', async () => {
    const gone = spawn(process.execPath, ['-e', '0']);
    await new Promise((resolve) => gone.once('exit', resolve));
    writeFileSync(join(root, 'engine.lock'), String(gone.pid));
    lockDirectory(join(root, 'engine'))();
  });
});
