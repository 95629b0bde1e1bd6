import { Inject, Injectable } from '@nestjs/common';
import { checkDownload, signDownload } from './download-signature';
import { keyUrlPath, objectKey } from './object-key';
import { Clock } from '@analytics/clock';
import { ObjectStoreError, ObjectStoreErrorCode } from './object-store-error';

/** The route of download links on the export host: `GET /downloads/<key>?expires=…&signature=…`. */
export const DOWNLOADS_PATH = 'downloads';

export const DOWNLOAD_LINK_SETTINGS = Symbol('DownloadLinkSettings');

export interface DownloadLinkOptions {
  /** HMAC key; one for every replica that makes or checks links. */
  secret: string;
  /** Default lifetime of a link. */
  ttlSeconds: number;
  /** Base URL of the export host, no trailing "/". */
  publicUrl: string;
}

/** Makes and checks signed, expiring links to stored objects (see docs/object-store.md). */
@Injectable()
export class DownloadLinks {
  constructor(
    @Inject(DOWNLOAD_LINK_SETTINGS) private readonly options: DownloadLinkOptions,
    private readonly clock: Clock,
  ) {}

  /** A link to `key` that works for `ttlSeconds` (default DOWNLOAD_LINK_TTL_SECONDS) from now. */
  url(key: string, { ttlSeconds = this.options.ttlSeconds }: { ttlSeconds?: number } = {}): string {
    objectKey(key);
    if (!Number.isInteger(ttlSeconds) || ttlSeconds < 1)
      throw new RangeError(`ttlSeconds must be a positive integer, got ${ttlSeconds}`);
    const expires = Math.floor(this.clock.now() / 1000) + ttlSeconds;
    const signature = signDownload(this.options.secret, key, expires);
    return `${this.options.publicUrl}/${DOWNLOADS_PATH}/${keyUrlPath(key)}?expires=${expires}&signature=${signature}`;
  }

  /** Throws {@link ObjectStoreError} (403) unless the link was made here for this key and has not expired. */
  verify(key: string, expires: unknown, signature: unknown): void {
    const check = checkDownload(this.options.secret, key, expires, signature, this.clock.now());
    if (check === 'invalid')
      throw new ObjectStoreError(ObjectStoreErrorCode.InvalidLink, 'invalid download link signature');
    if (check === 'expired') throw new ObjectStoreError(ObjectStoreErrorCode.ExpiredLink, 'download link expired');
  }
}
