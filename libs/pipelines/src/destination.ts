import { BucketDestination } from './pipeline-definition';

/** What ClickHouse's s3() needs to reach one destination: the secret is opened only for the run. */
export interface DestinationAccess {
  destination: BucketDestination;
  secretAccessKey?: string;
}

/**
 * The URL of an object, the way ClickHouse's s3() addresses it: path-style under a custom endpoint
 * when `force_path_style` (self-hosted stores, GCS), virtual-hosted otherwise. Keys and buckets are
 * validated to URL-safe characters, so nothing is escaped.
 */
export function objectUrl(destination: BucketDestination, key: string): string {
  const path = `${destination.prefix}${key}`;
  if (!destination.endpoint) return `https://${destination.bucket}.s3.${destination.region}.amazonaws.com/${path}`;
  const endpoint = new URL(destination.endpoint);
  if (destination.forcePathStyle) return `${endpoint.origin}/${destination.bucket}/${path}`;
  return `${endpoint.protocol}//${destination.bucket}.${endpoint.host}/${path}`;
}

/** `s3://bucket/prefix/key` or `gs://…`: how warehouses name a staged file. */
export function stagedUri(destination: BucketDestination, scheme: 's3' | 'gs', key: string): string {
  return `${scheme}://${destination.bucket}/${destination.prefix}${key}`;
}

/** The host ClickHouse's s3() will connect to for this destination (what the outbound policy checks). */
export function destinationHost(destination: BucketDestination): string {
  return new URL(objectUrl(destination, '')).hostname;
}
