/**
 * The few parts of POSIX tar (ustar) a backup needs: regular files, each a 512-byte header, its bytes and padding
 * to the next 512, and two zero blocks at the end. Any tar tool lists and extracts a backup.
 */
export const TAR_BLOCK = 512;

/** ustar's name field holds 100 bytes and its prefix 155: longer paths are refused rather than cut. */
const NAME_BYTES = 100;
const PREFIX_BYTES = 155;
/** 11 octal digits: a file up to 8 GiB. */
const MAX_SIZE = 8 ** 11 - 1;

export interface TarEntry {
  path: string;
  size: number;
}

function splitPath(path: string): { name: string; prefix: string } {
  if (Buffer.byteLength(path) <= NAME_BYTES) return { name: path, prefix: '' };
  for (let cut = path.lastIndexOf('/'); cut > 0; cut = path.lastIndexOf('/', cut - 1)) {
    const prefix = path.slice(0, cut);
    const name = path.slice(cut + 1);
    if (Buffer.byteLength(prefix) <= PREFIX_BYTES && Buffer.byteLength(name) <= NAME_BYTES) return { name, prefix };
  }
  throw new Error(`tar: the path ${path} is too long for a ustar header`);
}

const octal = (value: number, width: number) => `${value.toString(8).padStart(width - 1, '0')}\0`;

/** The header block of a regular file (mode 0600, owner 0, time 0: a backup's files carry no ownership). */
export function tarHeader({ path, size }: TarEntry): Buffer {
  if (!Number.isSafeInteger(size) || size < 0 || size > MAX_SIZE) throw new Error(`tar: bad size ${size} for ${path}`);
  const { name, prefix } = splitPath(path);
  const header = Buffer.alloc(TAR_BLOCK);
  header.write(name, 0, NAME_BYTES);
  header.write(octal(0o600, 8), 100);
  header.write(octal(0, 8), 108);
  header.write(octal(0, 8), 116);
  header.write(octal(size, 12), 124);
  header.write(octal(0, 12), 136);
  header.write(' '.repeat(8), 148);
  header.write('0', 156);
  header.write('ustar\0', 257);
  header.write('00', 263);
  header.write(prefix, 345, PREFIX_BYTES);
  header.write(octal(checksum(header), 7), 148);
  return header;
}

/** Zeros that take a file's bytes to the next block boundary. */
export const tarPadding = (size: number): Buffer => Buffer.alloc((TAR_BLOCK - (size % TAR_BLOCK)) % TAR_BLOCK);

/** The end of an archive. */
export const tarEnd = (): Buffer => Buffer.alloc(2 * TAR_BLOCK);

function checksum(header: Buffer): number {
  let sum = 0;
  for (let i = 0; i < TAR_BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : header[i];
  return sum;
}

const field = (header: Buffer, start: number, length: number) =>
  header.toString('utf8', start, start + length).replace(/\0.*$/s, '');

/** A header block read back: the entry, or undefined for the zero block that ends the archive. */
export function parseTarHeader(header: Buffer): TarEntry | undefined {
  if (header.length !== TAR_BLOCK) throw new Error('tar: a header is 512 bytes');
  if (header.every((byte) => byte === 0)) return undefined;
  const stored = parseInt(field(header, 148, 8).trim(), 8);
  if (stored !== checksum(header)) throw new Error('tar: a header is damaged (its checksum does not match)');
  const type = field(header, 156, 1);
  if (type !== '0' && type !== '') throw new Error(`tar: only regular files are expected, found type ${type}`);
  const name = field(header, 0, NAME_BYTES);
  const prefix = field(header, 345, PREFIX_BYTES);
  return { path: prefix ? `${prefix}/${name}` : name, size: parseInt(field(header, 124, 12).trim(), 8) };
}
