export { DOWNLOAD_LINK_SECRET_FILE, installationSecret } from './download-link-secret';
export { DownloadLinks } from './download-links';
export { checkDownload, signDownload } from './download-signature';
export { DownloadsModule } from './downloads.module';
export { LocalObjectStore } from './local-object-store';
export { objectKey } from './object-key';
export { ObjectStore } from './object-store';
export { ObjectStoreModule } from './object-store.module';
export { S3ObjectStore } from './s3-object-store';
