import type { Readable } from 'node:stream';

/** What a listing says about an object. */
export interface ObjectEntry {
  key: string;
  size: number;
  lastModified: Date;
}

export interface ObjectInfo extends ObjectEntry {
  contentType: string;
}

/** An object being read: its body is a stream the caller must consume or destroy. */
export interface StoredObject extends ObjectInfo {
  body: Readable;
}

export interface PutOptions {
  /** Default: from the key's extension (`.json`, `.gz`, `.parquet`, …), else `application/octet-stream`. */
  contentType?: string;
}

export interface PutResult {
  key: string;
  size: number;
}

/**
 * Where files are kept: a local folder or an S3-compatible bucket, chosen by configuration
 * (`ObjectStoreModule`). Keys follow {@link objectKey}: relative `/`-separated names, refused
 * rather than normalised when unsafe. A put is all-or-nothing: until it resolves, readers see the
 * previous object (or none), never part of the new one.
 */
export abstract class ObjectStore {
  abstract readonly kind: 'local' | 's3';

  /** Stores `body` under `key`, replacing any object there; a stream is read to its end without buffering it whole. */
  abstract put(key: string, body: Buffer | Readable, options?: PutOptions): Promise<PutResult>;

  /** The object with its body as a stream; undefined when there is none. */
  abstract get(key: string): Promise<StoredObject | undefined>;

  /** The object's size, type and time, without its body; undefined when there is none. */
  abstract head(key: string): Promise<ObjectInfo | undefined>;

  async exists(key: string): Promise<boolean> {
    return (await this.head(key)) !== undefined;
  }

  /** Removes the object; removing a missing one is not an error. */
  abstract delete(key: string): Promise<void>;

  /** Removes every object whose key starts with `prefix` (which may not be empty) and says how many. */
  abstract deletePrefix(prefix: string): Promise<number>;

  /** Every object whose key starts with `prefix` (S3 semantics, not folders), in key order. */
  abstract list(prefix?: string): Promise<ObjectEntry[]>;
}
