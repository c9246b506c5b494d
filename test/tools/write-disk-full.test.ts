/**
 * A tool's write on a full, over-quota or read-only disk is reported as such, with what to do, and
 * leaves the file as it was. The errno is injected where the bytes meet the disk
 * (write, fsync or open of the temporary file): tests run as root, where chmod stops nothing.
 */
import * as fs from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ensureParentDirectory, writeFileAtomic } from '../../src/tools/file-io.js';
import { tempDir } from '../support/recording-context.js';

/** which call fails for files named `<code>.<call>.txt` */
vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  const failing = (name: string) => /(ENOSPC|EDQUOT|EROFS)\.(\w+)\.txt\./.exec(name);
  const fdNames = new Map<number, string>();
  return {
    ...real,
    openSync: vi.fn((path: fs.PathLike, flags: fs.OpenMode, mode?: fs.Mode) => {
      const match = failing(String(path));
      if (match?.[2] === 'open')
        throw Object.assign(new Error(`${match[1]}: failed, open '${String(path)}'`), { code: match[1] });
      const fd = real.openSync(path, flags, mode);
      fdNames.set(fd, String(path));
      return fd;
    }),
    writeSync: vi.fn((fd: number, ...rest: unknown[]) => {
      const match = failing(fdNames.get(fd) ?? '');
      if (match?.[2] === 'write') throw Object.assign(new Error(`${match[1]}: failed, write`), { code: match[1] });
      return (real.writeSync as (...a: unknown[]) => number)(fd, ...rest);
    }),
    mkdirSync: vi.fn((path: fs.PathLike, options?: fs.MakeDirectoryOptions) => {
      if (String(path).endsWith('EROFS-dir'))
        throw Object.assign(new Error(`EROFS: read-only file system, mkdir '${String(path)}'`), { code: 'EROFS' });
      return real.mkdirSync(path, options);
    }),
    fsyncSync: vi.fn((fd: number) => {
      const match = failing(fdNames.get(fd) ?? '');
      if (match?.[2] === 'fsync') throw Object.assign(new Error(`${match[1]}: failed, fsync`), { code: match[1] });
      real.fsyncSync(fd);
    }),
  };
});

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => tmp.remove());

describe('a write on a disk that cannot take it', () => {
  it.each([
    [
      'ENOSPC',
      'write',
      'no space left on the disk holding {path} (ENOSPC). Nothing was written (the file is as it was). Free some space on that disk (`df -h` shows which is full) and try again.',
    ],
    [
      'EDQUOT',
      'fsync',
      'the disk quota is used up on the disk holding {path} (EDQUOT). Nothing was written (the file is as it was). Remove some of your files on that disk or ask for a larger quota, then try again.',
    ],
    [
      'EROFS',
      'open',
      '{path} is on a read-only file system (EROFS). Nothing was written. Files there cannot be changed; remount the disk read-write or work on a copy elsewhere.',
    ],
  ])('%s on %s: says so, keeps the file and leaves no temporary file', (code, call, reason) => {
    const path = join(tmp.dir, `${code}.${call}.txt`);
    fs.writeFileSync(path, 'precious\n');
    let error: NodeJS.ErrnoException | undefined;
    try {
      writeFileAtomic(path, Buffer.from('new\n'));
    } catch (err) {
      error = err as NodeJS.ErrnoException;
    }
    expect(error?.message).toBe(`cannot write ${path}: ${reason.replace('{path}', path)}`);
    expect(error?.code).toBe(code);
    expect(fs.readFileSync(path, 'utf8')).toBe('precious\n');
    expect(fs.readdirSync(tmp.dir)).toEqual([`${code}.${call}.txt`]);
  });
});

describe("a new file's folder on a read-only disk", () => {
  it('says so and what to do', () => {
    const folder = join(tmp.dir, 'EROFS-dir');
    expect(() => ensureParentDirectory(join(folder, 'a.txt'))).toThrow(
      `cannot create the folder ${folder} for ${join(folder, 'a.txt')}: ${folder} is on a read-only file system (EROFS). ` +
        'Nothing was written. Files there cannot be changed; remount the disk read-write or work on a copy elsewhere.',
    );
    expect(fs.readdirSync(tmp.dir)).toEqual([]);
  });
});
