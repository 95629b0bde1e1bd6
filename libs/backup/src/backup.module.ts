import { AuthModule } from '@analytics/auth';
import { ObjectStoreModule } from '@analytics/object-store';
import { ProjectsModule } from '@analytics/projects';
import { Module } from '@nestjs/common';
import { BackupArchive } from './backup-archive';
import { BackupController } from './backup.controller';
import { BackupService } from './backup.service';

/** POST /api/app/backup: the running embedded default's backup (docs/backup.md). */
@Module({
  imports: [AuthModule, ObjectStoreModule, ProjectsModule],
  controllers: [BackupController],
  providers: [BackupArchive, BackupService],
})
export class BackupModule {}
