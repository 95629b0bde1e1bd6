/**
 * What a backup holds (docs/backup.md, "Format"). A backup is a tar: `analytics-backup.json` first (its format, so a
 * restore refuses an unknown one before reading on), then the files, then `manifest.json`, written last: a backup
 * without it was cut off.
 */
export const BACKUP_FORMAT = 1;
export const HEADER_FILE = 'analytics-backup.json';
export const MANIFEST_FILE = 'manifest.json';
export const POSTGRES_FILE = 'postgres/data-dir.tar.gz';
export const SECRET_FILE = 'download-link.secret';
/** A table's rows: Native-format parts that, joined in order, are one Native stream. */
export const tablePart = (table: string, part: number) => `clickhouse/${table}/${String(part).padStart(6, '0')}.native`;
export const objectFile = (key: string) => `objects/${key}`;
/** A table's name (from system.tables, or a manifest) as a quoted identifier in a statement. */
export const quotedTable = (table: string) => `\`${table.replace(/[`\\]/g, '\\$&')}\``;

export interface BackupHeader {
  format: number;
  created: string;
  app_version: string;
}

/** One file of the backup as restore checks it. */
export interface BackupFile {
  bytes: number;
  sha256: string;
}

export interface BackupTable {
  name: string;
  engine: string;
  /** The table's CREATE statement as the engine showed it: a restore rebuilds the schema the backup was taken at. */
  create: string;
  rows: number;
  /** How many files hold its rows ({@link tablePart} 0 to parts - 1). */
  parts: number;
}

export interface BackupObject {
  key: string;
  content_type: string;
  file: string;
}

export interface BackupManifest extends BackupHeader {
  clickhouse: { migrations: number[]; tables: BackupTable[] };
  postgres: { migrations: number[]; file: string };
  objects: BackupObject[];
  download_link_secret: string | null;
  /** Every file but the header and the manifest, by its path in the tar. */
  files: Record<string, BackupFile>;
}

export class UnknownBackupFormatError extends Error {}

/** The header, refused unless this version of the platform reads its format. */
export function readBackupHeader(text: string): BackupHeader {
  const header = JSON.parse(text) as Partial<BackupHeader>;
  if (header.format !== BACKUP_FORMAT)
    throw new UnknownBackupFormatError(
      `this backup has format ${String(header.format)}; this version of the platform restores format ${BACKUP_FORMAT} only`,
    );
  return header as BackupHeader;
}

/**
 * Where a listed file lands, refused when it could escape the directory it is unpacked into: paths come from a
 * file the reader did not write.
 */
export function safeBackupPath(path: string): string {
  const parts = path.split('/');
  if (!path || path.startsWith('/') || parts.some((part) => part === '' || part === '.' || part === '..'))
    throw new Error(`the backup names an unsafe path: ${JSON.stringify(path)}`);
  return path;
}
