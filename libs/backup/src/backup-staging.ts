import { createHash } from 'node:crypto';
import { mkdir, open } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import {
  BackupFile,
  BackupHeader,
  BackupManifest,
  HEADER_FILE,
  MANIFEST_FILE,
  readBackupHeader,
  safeBackupPath,
} from './backup-manifest';
import { readTar } from './tar-reader';

/** Larger than any header or manifest a backup writes; guards against reading a huge "manifest" into memory. */
const MAX_JSON_BYTES = 64 << 20;

export class CorruptBackupError extends Error {}

/**
 * Unpacks a backup into `directory` as it streams in, checking its format first and, once it has ended, every
 * file's size and checksum against the manifest written last. Returns the manifest.
 */
export async function stageBackup(
  source: AsyncIterable<Buffer>,
  directory: string,
): Promise<{ header: BackupHeader; manifest: BackupManifest }> {
  const staged: Record<string, BackupFile> = {};
  let header: BackupHeader | undefined;
  let manifest: BackupManifest | undefined;
  let json: Buffer[] | undefined;
  let file: Awaited<ReturnType<typeof open>> | undefined;
  let hash = createHash('sha256');
  let bytes = 0;
  try {
    for await (const piece of readTar(source)) {
      if ('start' in piece) {
        const path = safeBackupPath(piece.start.path);
        if (!header && path !== HEADER_FILE)
          throw new CorruptBackupError(`this is not a backup: it starts with ${path}`);
        if (manifest) throw new CorruptBackupError(`the backup goes on after its manifest (${path})`);
        hash = createHash('sha256');
        bytes = 0;
        if (path === HEADER_FILE || path === MANIFEST_FILE) {
          if (piece.start.size > MAX_JSON_BYTES) throw new CorruptBackupError(`${path} is too large`);
          json = [];
        } else {
          await mkdir(dirname(join(directory, path)), { recursive: true });
          file = await open(join(directory, path), 'wx');
        }
      } else if ('bytes' in piece) {
        hash.update(piece.bytes);
        bytes += piece.bytes.length;
        if (json) json.push(Buffer.from(piece.bytes));
        else await file!.write(piece.bytes);
      } else if (json) {
        const text = Buffer.concat(json).toString('utf8');
        json = undefined;
        if (!header) header = readBackupHeader(text);
        else manifest = JSON.parse(text) as BackupManifest;
      } else {
        await file!.close();
        file = undefined;
        staged[piece.end.path] = { bytes, sha256: hash.digest('hex') };
      }
    }
  } finally {
    await file?.close();
  }
  if (!header || !manifest) throw new CorruptBackupError('the backup has no manifest: it was cut off');
  checkFiles(manifest.files, staged);
  return { header, manifest };
}

function checkFiles(listed: Record<string, BackupFile>, staged: Record<string, BackupFile>): void {
  for (const [path, expected] of Object.entries(listed)) {
    const found = staged[path];
    if (!found) throw new CorruptBackupError(`the backup lacks ${path}, which its manifest lists`);
    if (found.bytes !== expected.bytes || found.sha256 !== expected.sha256)
      throw new CorruptBackupError(`${path} is damaged: its checksum does not match the manifest's`);
  }
  const unlisted = Object.keys(staged).filter((path) => !listed[path]);
  if (unlisted.length) throw new CorruptBackupError(`the manifest does not list ${unlisted.join(', ')}`);
}
