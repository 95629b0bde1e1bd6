import type { ObjectStoreSettings } from '@analytics/config';
import { LocalObjectStore } from './local-object-store';
import { ObjectStore } from './object-store';
import { S3ObjectStore } from './s3-object-store';

/** The store the settings name: the local folder, or the S3-compatible bucket. */
export function createObjectStore(settings: ObjectStoreSettings, options: { partBytes?: number } = {}): ObjectStore {
  return settings.kind === 's3' ? new S3ObjectStore(settings, options) : new LocalObjectStore(settings.directory);
}
