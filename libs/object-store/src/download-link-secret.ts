import { randomBytes, randomUUID } from 'node:crypto';
import { link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AppConfig } from '@analytics/config';

/** The embedded default's link key, beside the engines' files: stable across restarts of one installation. */
export const DOWNLOAD_LINK_SECRET_FILE = 'download-link.secret';

/**
 * The link key of an installation without DOWNLOAD_LINK_SECRET (the embedded default, never S3: the
 * config requires the setting there). Generated once and kept in `<DATA_DIR>/download-link.secret`
 * (mode 0600), so links survive restarts and every process sharing DATA_DIR signs alike. Created by
 * hard-linking a complete temporary file: concurrent first starts agree on one key, none reads half.
 */
export async function embeddedDownloadLinkSecret(dataDir: string): Promise<string> {
  const path = join(dataDir, DOWNLOAD_LINK_SECRET_FILE);
  const read = () => readFile(path, 'utf8');
  let text = await read().catch((error: unknown) =>
    (error as NodeJS.ErrnoException).code === 'ENOENT' ? undefined : Promise.reject(error),
  );
  if (text === undefined) {
    await mkdir(dataDir, { recursive: true });
    // A temporary file's name, not an id: only unique, gone once linked into place.
    const temp = `${path}.${randomUUID()}`;
    try {
      await writeFile(temp, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
      await link(temp, path).catch((error: unknown) => {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      });
    } finally {
      await rm(temp, { force: true });
    }
    text = await read();
  }
  const secret = text.trim();
  if (!/^[\x21-\x7e]{32,256}$/.test(secret)) {
    throw new Error(
      `${path} does not hold a download link key (32 to 256 printable characters): remove it to generate a new one, or set DOWNLOAD_LINK_SECRET`,
    );
  }
  return secret;
}

/**
 * The installation's secret: DOWNLOAD_LINK_SECRET, else the embedded default's generated key. Signs
 * download links, and keys (through HKDF, each with its own purpose) what is sealed at rest.
 */
export async function installationSecret(config: AppConfig): Promise<string> {
  return config.downloadLinks.secret ?? (await embeddedDownloadLinkSecret(config.dataDir));
}
