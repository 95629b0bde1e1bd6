import { AppConfig } from '@analytics/config';
import { Module } from '@nestjs/common';
import { createObjectStore } from './create-object-store';
import { installationSecret } from './download-link-secret';
import { DOWNLOAD_LINK_SETTINGS, DownloadLinkOptions, DownloadLinks } from './download-links';
import { ObjectStore } from './object-store';

const downloadLinkOptions = async (config: AppConfig): Promise<DownloadLinkOptions> => ({
  secret: await installationSecret(config),
  ttlSeconds: config.downloadLinks.ttlSeconds,
  publicUrl: config.exportPublicUrl,
});

/**
 * The object store the configuration names (folder or S3) and the link signer, for the services that
 * write files (compliance retrievals, pipelines, warehouse imports). Needs the global ConfigModule and ClockModule (the platform's).
 */
@Module({
  providers: [
    {
      provide: ObjectStore,
      useFactory: (config: AppConfig) => createObjectStore(config.objectStore),
      inject: [AppConfig],
    },
    { provide: DOWNLOAD_LINK_SETTINGS, useFactory: downloadLinkOptions, inject: [AppConfig] },
    DownloadLinks,
  ],
  exports: [ObjectStore, DownloadLinks],
})
export class ObjectStoreModule {}
