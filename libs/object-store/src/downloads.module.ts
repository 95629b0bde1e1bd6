import { Module } from '@nestjs/common';
import { DownloadsController } from './downloads.controller';
import { ObjectStoreModule } from './object-store.module';

/** `GET /downloads/<key>`: signed links to stored files, mounted by the export service (the `{export_url}` host). */
@Module({ imports: [ObjectStoreModule], controllers: [DownloadsController] })
export class DownloadsModule {}
