import { domainErrorOf } from '@analytics/errors';

export enum BackupErrorCode {
  /** One backup at a time: a second would double the load and the memory of the first. */
  BackupRunning = 'backup_running',
  /** The server keeps its data in a ClickHouse server, a Postgres server or S3: those are backed up by their own tools. */
  NotEmbedded = 'not_embedded',
}

const STATUS: Readonly<Record<BackupErrorCode, 409>> = {
  [BackupErrorCode.BackupRunning]: 409,
  [BackupErrorCode.NotEmbedded]: 409,
};

export class BackupError extends domainErrorOf(STATUS) {}
