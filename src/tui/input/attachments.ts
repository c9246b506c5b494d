/**
 * Image attachments for a prompt (the original's rules): only `.jpg .jpeg .png .webp` files of at most
 * 5 MB, their type sniffed from the first 512 bytes (the magic numbers, as Go's
 * `http.DetectContentType` reads them in the original), at most 5 per message.
 */
import { open, stat } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import type { ImagePart } from '../../message.js';

/** The most attachments one message holds. */
export const MAX_ATTACHMENTS = 5;

/** The largest attachable file, bytes (5 MiB, the original's `5 * 1024 * 1024`). */
export const MAX_ATTACHMENT_BYTES = 5 * 1024 * 1024;

/** File name endings that may be attached, lower-case. */
export const IMAGE_EXTENSIONS = ['.jpg', '.jpeg', '.png', '.webp'] as const;

/** An attachment that cannot be used; `message` is meant for the status bar. */
export class AttachmentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AttachmentError';
  }
}

/** Whether `path` ends in one of {@link IMAGE_EXTENSIONS} (any case). */
export function hasImageExtension(path: string): boolean {
  return (IMAGE_EXTENSIONS as readonly string[]).includes(extname(path).toLowerCase());
}

/**
 * The image type of a file from its first bytes (up to 512 are looked at): `image/png`,
 * `image/jpeg`, `image/webp`, or undefined for anything else. Signatures: PNG `89 50 4E 47 0D 0A
 * 1A 0A`, JPEG `FF D8 FF`, WebP `RIFF????WEBPVP` (the WHATWG MIME sniffing standard's table).
 */
export function sniffImageMime(head: Uint8Array): string | undefined {
  const starts = (bytes: number[], at = 0) => bytes.every((b, i) => head[at + i] === b);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (starts([0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50, 0x56, 0x50], 8)) return 'image/webp';
  return undefined;
}

/** Bytes as `7.2 MB` (MiB, one decimal). */
export function formatMegabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * Reads an image file into an {@link ImagePart} (base64 data, sniffed MIME type, the file's name).
 * Throws {@link AttachmentError} with a message for the person:
 * - `not an image: notes.txt; attach .jpg, .jpeg, .png or .webp` (wrong ending, or a folder)
 * - `too large: 7.2 MB; the limit is 5 MB`
 * - `not an image: fake.png; its content is not JPEG, PNG or WebP`
 * - `cannot read shot.png: <reason>` (missing file, no permission)
 */
export async function loadAttachment(path: string): Promise<ImagePart> {
  const name = basename(path);
  if (!hasImageExtension(path)) throw new AttachmentError(`not an image: ${name}; attach .jpg, .jpeg, .png or .webp`);
  let size: number;
  try {
    const st = await stat(path);
    if (!st.isFile()) throw new AttachmentError(`not an image: ${name}; attach .jpg, .jpeg, .png or .webp`);
    size = st.size;
  } catch (err) {
    if (err instanceof AttachmentError) throw err;
    throw new AttachmentError(`cannot read ${name}: ${reason(err)}`);
  }
  if (size > MAX_ATTACHMENT_BYTES) {
    throw new AttachmentError(
      `too large: ${formatMegabytes(size)}; the limit is ${MAX_ATTACHMENT_BYTES / (1024 * 1024)} MB`,
    );
  }
  let data: Buffer;
  try {
    const file = await open(path, 'r');
    try {
      data = await file.readFile();
    } finally {
      await file.close();
    }
  } catch (err) {
    throw new AttachmentError(`cannot read ${name}: ${reason(err)}`);
  }
  const mimeType = sniffImageMime(data.subarray(0, 512));
  if (!mimeType) throw new AttachmentError(`not an image: ${name}; its content is not JPEG, PNG or WebP`);
  return { type: 'image', mimeType, data: data.toString('base64'), name };
}

function reason(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return err instanceof Error ? err.message : String(err);
}
