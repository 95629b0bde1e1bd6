export { BackupModule } from './backup.module';
export { restoreBackup } from './restore';
