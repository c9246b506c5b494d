import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { AttachmentError, loadAttachment, sniffImageMime } from '../../src/tui/input/attachments.js';
import { cleanupTempDirs, tempDir, writeTree } from '../support/temp-tree.js';

afterEach(cleanupTempDirs);

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46]);
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([36, 0, 0, 0]), Buffer.from('WEBPVP8 ')]);

async function failure(path: string): Promise<string> {
  const err = await loadAttachment(path).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AttachmentError);
  return (err as Error).message;
}

describe('loadAttachment', () => {
  it('reads png, jpeg and webp with the sniffed type, whatever the extension says', async () => {
    const dir = tempDir();
    writeTree(dir, { 'shot.png': PNG, 'photo.JPG': JPEG, 'anim.webp': WEBP, 'misnamed.png': JPEG });
    expect(await loadAttachment(join(dir, 'shot.png'))).toEqual({
      type: 'image',
      mimeType: 'image/png',
      data: PNG.toString('base64'),
      name: 'shot.png',
    });
    expect((await loadAttachment(join(dir, 'photo.JPG'))).mimeType).toBe('image/jpeg');
    expect((await loadAttachment(join(dir, 'anim.webp'))).mimeType).toBe('image/webp');
    expect((await loadAttachment(join(dir, 'misnamed.png'))).mimeType).toBe('image/jpeg');
  });

  it('refuses other extensions, files over 5 MB, fake images and missing files with clear messages', async () => {
    const dir = tempDir();
    const big = Buffer.alloc(Math.round(7.2 * 1024 * 1024));
    PNG.copy(big);
    writeTree(dir, {
      'x.txt': 'hello',
      'big.png': big,
      'fake.png': 'not really a png',
      'pic.gif': 'GIF89a',
      'folder.png/a': '',
    });
    expect(await failure(join(dir, 'x.txt'))).toBe('not an image: x.txt; attach .jpg, .jpeg, .png or .webp');
    expect(await failure(join(dir, 'pic.gif'))).toBe('not an image: pic.gif; attach .jpg, .jpeg, .png or .webp');
    expect(await failure(join(dir, 'big.png'))).toBe('too large: 7.2 MB; the limit is 5 MB');
    expect(await failure(join(dir, 'fake.png'))).toBe('not an image: fake.png; its content is not JPEG, PNG or WebP');
    expect(await failure(join(dir, 'gone.png'))).toBe('cannot read gone.png: no such file');
    expect(await failure(join(dir, 'folder.png'))).toBe('not an image: folder.png; attach .jpg, .jpeg, .png or .webp');
  });

  it('accepts exactly 5 MB', async () => {
    const dir = tempDir();
    const five = Buffer.alloc(5 * 1024 * 1024);
    PNG.copy(five);
    writeTree(dir, { 'five.png': five });
    expect((await loadAttachment(join(dir, 'five.png'))).mimeType).toBe('image/png');
  });
});

describe('sniffImageMime', () => {
  it('knows the three signatures and nothing else', () => {
    expect(sniffImageMime(PNG)).toBe('image/png');
    expect(sniffImageMime(JPEG)).toBe('image/jpeg');
    expect(sniffImageMime(WEBP)).toBe('image/webp');
    expect(sniffImageMime(Buffer.from('RIFF\0\0\0\0WAVEfmt '))).toBeUndefined();
    expect(sniffImageMime(Buffer.from('GIF89a'))).toBeUndefined();
    expect(sniffImageMime(new Uint8Array())).toBeUndefined();
  });
});
