import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsCommand,
  ListObjectsCommandOutput,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import type { ObjectStoreSettings } from '@analytics/config';
import { OnModuleDestroy } from '@nestjs/common';
import type { Readable } from 'node:stream';
import { contentTypeFor } from './content-type';
import { objectKey, objectPrefix } from './object-key';
import { ObjectEntry, ObjectInfo, ObjectStore, PutOptions, PutResult, StoredObject } from './object-store';
import { ObjectStoreError, ObjectStoreErrorCode } from './object-store-error';
import { streamParts } from './stream-parts';

export type S3Settings = Extract<ObjectStoreSettings, { kind: 's3' }>;

/** S3 refuses parts under 5 MiB (but the last) and more than 10,000 parts: 8 MiB parts reach 78 GiB. */
export const MIN_PART_BYTES = 5 * 1024 * 1024;
const DEFAULT_PART_BYTES = 8 * 1024 * 1024;

const notFound = (error: unknown): boolean => {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
};

/**
 * Objects in an S3-compatible bucket (AWS, MinIO, R2, s3rver in tests), under `S3_PREFIX`.
 * A stream is uploaded without knowing its length: one PutObject when it fits in one part, else a
 * multipart upload of fixed-size parts (one part in memory at a time; aborted on failure, so no
 * half object ever becomes visible). `@aws-sdk/lib-storage` would do the same and is not installed.
 */
export class S3ObjectStore extends ObjectStore implements OnModuleDestroy {
  readonly kind = 's3' as const;
  private readonly client: S3Client;
  private readonly partBytes: number;

  constructor(
    private readonly settings: S3Settings,
    options: { partBytes?: number } = {},
  ) {
    super();
    this.partBytes = Math.max(MIN_PART_BYTES, options.partBytes ?? DEFAULT_PART_BYTES);
    this.client = new S3Client({
      region: settings.region,
      endpoint: settings.endpoint,
      forcePathStyle: settings.forcePathStyle,
      credentials: settings.credentials,
      // Checksums only where S3 requires them: MinIO-likes and s3rver reject the newer streaming checksum trailers.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  onModuleDestroy(): void {
    this.client.destroy();
  }

  async put(key: string, body: Buffer | Readable, options: PutOptions = {}): Promise<PutResult> {
    objectKey(key);
    const contentType = contentTypeFor(key, options.contentType);
    if (Buffer.isBuffer(body)) return this.putWhole(key, body, contentType);
    const parts = streamParts(body, this.partBytes);
    try {
      const first = await parts.next();
      if (first.done) return await this.putWhole(key, Buffer.alloc(0), contentType);
      const second = await parts.next();
      if (second.done) return await this.putWhole(key, first.value, contentType);
      return await this.putMultipart(key, contentType, first.value, second.value, parts);
    } finally {
      // Stops reading (and destroys the source) if the upload failed before the end.
      await parts.return(undefined);
    }
  }

  async get(key: string): Promise<StoredObject | undefined> {
    try {
      const out = await this.client.send(
        new GetObjectCommand({ Bucket: this.settings.bucket, Key: this.physical(key) }),
      );
      return {
        key,
        size: out.ContentLength ?? 0,
        lastModified: out.LastModified ?? new Date(0),
        contentType: out.ContentType ?? 'application/octet-stream',
        body: out.Body as Readable,
      };
    } catch (error) {
      if (notFound(error)) return undefined;
      throw error;
    }
  }

  async head(key: string): Promise<ObjectInfo | undefined> {
    try {
      const out = await this.client.send(
        new HeadObjectCommand({ Bucket: this.settings.bucket, Key: this.physical(key) }),
      );
      return {
        key,
        size: out.ContentLength ?? 0,
        lastModified: out.LastModified ?? new Date(0),
        contentType: out.ContentType ?? 'application/octet-stream',
      };
    } catch (error) {
      if (notFound(error)) return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: this.physical(key) }));
  }

  async deletePrefix(prefix: string): Promise<number> {
    if (objectPrefix(prefix) === '')
      throw new ObjectStoreError(ObjectStoreErrorCode.InvalidKey, 'deleting by prefix needs a non-empty prefix');
    let deleted = 0;
    // Physical keys, unchecked: objects under the prefix that others wrote (ClickHouse s3()) go too.
    for await (const page of this.pages(prefix)) {
      const keys = (page.Contents ?? []).flatMap((o) => (o.Key ? [{ Key: o.Key }] : []));
      if (!keys.length) continue;
      const out = await this.client.send(
        new DeleteObjectsCommand({ Bucket: this.settings.bucket, Delete: { Objects: keys, Quiet: true } }),
      );
      if (out.Errors?.length)
        throw new Error(
          `S3 refused to delete ${out.Errors.length} objects, first ${out.Errors[0].Key}: ${out.Errors[0].Message}`,
        );
      deleted += keys.length;
    }
    return deleted;
  }

  async list(prefix = ''): Promise<ObjectEntry[]> {
    objectPrefix(prefix);
    const entries: ObjectEntry[] = [];
    for await (const page of this.pages(prefix)) {
      for (const o of page.Contents ?? []) {
        if (o.Key)
          entries.push({
            key: o.Key.slice(this.settings.prefix.length),
            size: o.Size ?? 0,
            lastModified: o.LastModified ?? new Date(0),
          });
      }
    }
    // S3 lists in UTF-8 byte order already; s3rver walks folders, which puts "a/1" before "a-b".
    return entries.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  private physical(key: string): string {
    return this.settings.prefix + objectKey(key);
  }

  /**
   * Listing pages, each resumed after the last key of the one before (ListObjects `Marker`): every
   * S3-compatible store has it, and s3rver fails any truncated ListObjectsV2 page (its continuation
   * tokens need DES, which OpenSSL 3 in Node 18 and later no longer offers).
   */
  private async *pages(prefix: string): AsyncGenerator<ListObjectsCommandOutput> {
    let marker: string | undefined;
    for (;;) {
      const page = await this.client.send(
        new ListObjectsCommand({ Bucket: this.settings.bucket, Prefix: this.settings.prefix + prefix, Marker: marker }),
      );
      yield page;
      marker = page.Contents?.at(-1)?.Key;
      if (!page.IsTruncated || !marker) return;
    }
  }

  private async putWhole(key: string, body: Buffer, contentType: string): Promise<PutResult> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.settings.bucket,
        Key: this.physical(key),
        Body: body,
        ContentType: contentType,
        ContentLength: body.length,
      }),
    );
    return { key, size: body.length };
  }

  private async putMultipart(
    key: string,
    contentType: string,
    first: Buffer,
    second: Buffer,
    rest: AsyncGenerator<Buffer>,
  ): Promise<PutResult> {
    const target = { Bucket: this.settings.bucket, Key: this.physical(key) };
    const { UploadId } = await this.client.send(
      new CreateMultipartUploadCommand({ ...target, ContentType: contentType }),
    );
    const parts: { PartNumber: number; ETag: string | undefined }[] = [];
    let size = 0;
    const upload = async (body: Buffer) => {
      const PartNumber = parts.length + 1;
      const out = await this.client.send(
        new UploadPartCommand({ ...target, UploadId, PartNumber, Body: body, ContentLength: body.length }),
      );
      parts.push({ PartNumber, ETag: out.ETag });
      size += body.length;
    };
    try {
      await upload(first);
      await upload(second);
      for (let next = await rest.next(); !next.done; next = await rest.next()) await upload(next.value);
      await this.client.send(
        new CompleteMultipartUploadCommand({ ...target, UploadId, MultipartUpload: { Parts: parts } }),
      );
      return { key, size };
    } catch (error) {
      // Uploaded parts cost storage until aborted (a bucket lifecycle rule is the backstop).
      await this.client.send(new AbortMultipartUploadCommand({ ...target, UploadId })).catch(() => undefined);
      throw error;
    }
  }
}
