import { Logger, OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, rmdir, stat, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { contentTypeFor, contentTypeOfKey } from './content-type';
import { objectKey, objectPrefix } from './object-key';
import { ObjectEntry, ObjectInfo, ObjectStore, PutOptions, PutResult, StoredObject } from './object-store';
import { ObjectStoreError, ObjectStoreErrorCode } from './object-store-error';

/** Written beside the data: the type given at put, valid only for the file whose inode it names. */
interface Sidecar {
  contentType: string;
  ino: number;
}

const PARTIAL = '.partial';
const META = '.meta';
/** Uploads older than this in `.partial` were abandoned by a crash; start-up removes them. */
const ABANDONED_AFTER_MS = 24 * 3600_000;
const code = (error: unknown) => (error as NodeJS.ErrnoException).code;
const missing = (error: unknown) => ['ENOENT', 'ENOTDIR', 'EISDIR'].includes(code(error) ?? '');

/**
 * Objects as plain files under one folder (`<DATA_DIR>/objects`), so ClickHouse `file()` output and
 * the store see the same tree. Keys cannot start a segment with ".", so the store's own `.partial`
 * (uploads in progress) and `.meta` (content types) never collide with an object.
 *
 * A put streams into `.partial/<uuid>`, flushes it to disk and renames it into place: rename is
 * atomic on one file system, so a reader opens either the old file or the complete new one.
 */
export class LocalObjectStore extends ObjectStore implements OnModuleInit {
  readonly kind = 'local' as const;
  private readonly logger = new Logger('ObjectStore');

  constructor(readonly root: string) {
    super();
  }

  async onModuleInit(): Promise<void> {
    // Real time, not the Clock: the cutoff is compared with file times the operating system wrote.
    const removed = await this.removeAbandonedUploads(Date.now() - ABANDONED_AFTER_MS);
    if (removed) this.logger.log(`removed ${removed} abandoned partial uploads from ${this.root}`);
  }

  async put(key: string, body: Buffer | Readable, options: PutOptions = {}): Promise<PutResult> {
    objectKey(key);
    const contentType = contentTypeFor(key, options.contentType);
    await mkdir(join(this.root, PARTIAL), { recursive: true });
    const temp = join(this.root, PARTIAL, randomUUID());
    try {
      // flush: fsync before close, so the renamed file is never an empty shell after a power loss.
      await pipeline(
        Buffer.isBuffer(body) ? Readable.from([body]) : body,
        createWriteStream(temp, { flags: 'wx', flush: true }),
      );
      const { ino, size } = await stat(temp);
      await this.writeSidecar(key, { contentType, ino });
      await this.moveInto(temp, this.pathOf(key), key);
      return { key, size };
    } finally {
      await rm(temp, { force: true });
    }
  }

  async get(key: string): Promise<StoredObject | undefined> {
    const handle = await open(this.pathOf(objectKey(key)), 'r').catch((error: unknown) => {
      if (missing(error)) return undefined;
      throw error;
    });
    if (!handle) return undefined;
    try {
      // The open descriptor pins this version: a put that renames over it meanwhile does not change what is read.
      const stats = await handle.stat();
      if (!stats.isFile()) {
        await handle.close();
        return undefined;
      }
      const info = {
        key,
        size: stats.size,
        lastModified: stats.mtime,
        contentType: await this.contentTypeOf(key, stats.ino),
      };
      return { ...info, body: handle.createReadStream() };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  async head(key: string): Promise<ObjectInfo | undefined> {
    const stats = await stat(this.pathOf(objectKey(key))).catch((error: unknown) => {
      if (missing(error)) return undefined;
      throw error;
    });
    if (!stats?.isFile()) return undefined;
    return { key, size: stats.size, lastModified: stats.mtime, contentType: await this.contentTypeOf(key, stats.ino) };
  }

  async delete(key: string): Promise<void> {
    await this.remove(objectKey(key));
  }

  async deletePrefix(prefix: string): Promise<number> {
    if (objectPrefix(prefix) === '')
      throw new ObjectStoreError(ObjectStoreErrorCode.InvalidKey, 'deleting by prefix needs a non-empty prefix');
    const entries = await this.list(prefix);
    for (const entry of entries) await this.remove(entry.key);
    return entries.length;
  }

  async list(prefix = ''): Promise<ObjectEntry[]> {
    objectPrefix(prefix);
    const folder = prefix.slice(0, prefix.lastIndexOf('/') + 1);
    const entries: ObjectEntry[] = [];
    await this.walk(folder, prefix, entries);
    return entries.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  /** Removes uploads in `.partial` last written before `before` (ms); returns how many. */
  async removeAbandonedUploads(before: number): Promise<number> {
    const folder = join(this.root, PARTIAL);
    const names = await readdir(folder).catch((error: unknown) => (missing(error) ? [] : Promise.reject(error)));
    let removed = 0;
    for (const name of names) {
      const stats = await stat(join(folder, name)).catch(() => undefined);
      if (stats && stats.mtimeMs < before) {
        await rm(join(folder, name), { force: true });
        removed++;
      }
    }
    return removed;
  }

  private pathOf(key: string): string {
    return join(this.root, ...key.split('/'));
  }

  private sidecarOf(key: string): string {
    return `${join(this.root, META, ...key.split('/'))}.json`;
  }

  private async walk(folder: string, prefix: string, into: ObjectEntry[]): Promise<void> {
    const dirents = await readdir(join(this.root, folder), { withFileTypes: true }).catch((error: unknown) =>
      missing(error) ? [] : Promise.reject(error),
    );
    for (const dirent of dirents) {
      // Names starting with "." are the store's own (.partial, .meta) or not objects at all.
      if (dirent.name.startsWith('.')) continue;
      const key = `${folder}${dirent.name}`;
      if (dirent.isDirectory()) {
        if (`${key}/`.startsWith(prefix) || prefix.startsWith(`${key}/`)) await this.walk(`${key}/`, prefix, into);
      } else if (dirent.isFile() && key.startsWith(prefix)) {
        const stats = await stat(join(this.root, key)).catch(() => undefined);
        if (stats) into.push({ key, size: stats.size, lastModified: stats.mtime });
      }
    }
  }

  private async contentTypeOf(key: string, ino: number): Promise<string> {
    const sidecar = await readFile(this.sidecarOf(key), 'utf8').then(
      (text) => JSON.parse(text) as Sidecar,
      () => undefined,
    );
    // A sidecar of another inode belongs to a version being replaced or deleted: fall back to the extension.
    return sidecar?.ino === ino ? sidecar.contentType : contentTypeOfKey(key);
  }

  private async writeSidecar(key: string, sidecar: Sidecar): Promise<void> {
    const temp = join(this.root, PARTIAL, `${randomUUID()}.json`);
    try {
      await open(temp, 'wx').then(async (handle) => {
        await handle.writeFile(JSON.stringify(sidecar));
        await handle.close();
      });
      await this.moveInto(temp, this.sidecarOf(key), key);
    } finally {
      await rm(temp, { force: true });
    }
  }

  /** Renames into place, creating folders; a concurrent delete may prune a folder between the two, so retry. */
  private async moveInto(temp: string, target: string, key: string): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await mkdir(dirname(target), { recursive: true });
        await rename(temp, target);
        return;
      } catch (error) {
        if (code(error) === 'ENOENT' && attempt < 5) continue;
        if (['ENOTDIR', 'EISDIR', 'EEXIST', 'ENOTEMPTY'].includes(code(error) ?? '')) {
          throw new ObjectStoreError(
            ObjectStoreErrorCode.KeyConflict,
            `object key ${JSON.stringify(key)} conflicts with another key: a file and a folder cannot share a name here`,
          );
        }
        throw error;
      }
    }
  }

  private async remove(key: string): Promise<void> {
    // unlink, not rm: a folder standing at the key (other keys below it) is not this object.
    for (const path of [this.pathOf(key), this.sidecarOf(key)]) {
      await unlink(path).catch((error: unknown) => {
        if (!missing(error) && code(error) !== 'EPERM') throw error;
      });
    }
    await this.pruneEmptyFolders(dirname(this.pathOf(key)), this.root);
    await this.pruneEmptyFolders(dirname(this.sidecarOf(key)), join(this.root, META));
  }

  /** Removes now-empty folders up to `stop`, so deleted prefixes leave no empty tree behind. */
  private async pruneEmptyFolders(folder: string, stop: string): Promise<void> {
    for (let current = folder; current.startsWith(`${stop}/`); current = dirname(current)) {
      const removed = await rmdir(current).then(
        () => true,
        () => false,
      );
      if (!removed) return;
    }
  }
}
