/**
 * Storage failures said in plain words: one row per kind of failure, with the error as
 * the file system or SQLite gives it (injected here: a full or read-only disk can't be made in-process;
 * test/app/storage-at-start.test.ts does it for real in a mount namespace).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { asStorageError, describeStorageError, StorageError, storageProblem } from '../../src/db/storage-errors.js';

const errno = (code: string, message = `${code}: failed`) => Object.assign(new Error(message), { code });
const dir = mkdtempSync(join(tmpdir(), 'opencode-storage-'));

describe('describeStorageError', () => {
  it.each([
    [
      'EROFS on mkdir, at start',
      errno('EROFS'),
      'data',
      '/p/.opencode is on a read-only file system (EROFS). Nothing can be saved there: run opencode in a folder on a writable disk, or set data.directory in .opencode.json to a writable folder.',
    ],
    [
      'ENOSPC on a tool write',
      errno('ENOSPC'),
      'file',
      'no space left on the disk holding /p/.opencode (ENOSPC). Nothing was written (the file is as it was). Free some space on that disk (`df -h` shows which is full) and try again.',
    ],
    [
      'EDQUOT at start',
      errno('EDQUOT'),
      'data',
      'the disk quota is used up on the disk holding /p/.opencode (EDQUOT). Remove some of your files on that disk or ask for a larger quota, then start opencode again.',
    ],
    [
      'SQLITE_FULL at start',
      errno('SQLITE_FULL', 'database or disk is full'),
      'data',
      'no space left on the disk holding /p/.opencode (SQLITE_FULL). Free some space on that disk (`df -h` shows which is full) and start opencode again.',
    ],
    [
      'EACCES at start',
      errno('EACCES'),
      'data',
      'permission denied writing /p/.opencode (EACCES). Make the folder writable for you, or set data.directory in .opencode.json to a folder you can write.',
    ],
    [
      'EROFS on a tool write',
      errno('EROFS'),
      'file',
      '/p/.opencode is on a read-only file system (EROFS). Nothing was written. Files there cannot be changed; remount the disk read-write or work on a copy elsewhere.',
    ],
  ] as const)('%s', (_name, err, context, expected) => {
    expect(describeStorageError(err, '/p/.opencode', context)).toBe(expected);
  });

  it('leaves other errors alone (the caller keeps their message)', () => {
    expect(describeStorageError(errno('EISDIR'), dir, 'file')).toBeUndefined();
    expect(describeStorageError(new Error('no code'), dir, 'file')).toBeUndefined();
    expect(
      describeStorageError(errno('SQLITE_CORRUPT', 'database disk image is malformed'), dir, 'data'),
    ).toBeUndefined();
  });

  it('an ambiguous "disk I/O error" on a disk that is writable and has room is not blamed on the disk', () => {
    expect(storageProblem(errno('SQLITE_IOERR_WRITE', 'disk I/O error'), dir)).toBeUndefined();
    expect(storageProblem(errno('ENOENT'), join(dir, 'missing', 'x'))).toBeUndefined();
  });

  it('"attempt to write a readonly database" on a writable disk is a permission problem', () => {
    expect(storageProblem(errno('SQLITE_READONLY', 'attempt to write a readonly database'), dir)).toBe('permission');
  });

  it('asStorageError keeps the code and the original as its cause', () => {
    const original = errno('ENOSPC');
    const wrapped = asStorageError(original, '/p/.opencode', 'data') as StorageError;
    expect(wrapped).toBeInstanceOf(StorageError);
    expect(wrapped.code).toBe('ENOSPC');
    expect(wrapped.cause).toBe(original);
    expect(asStorageError(errno('EISDIR'), '/p', 'data')).toEqual(errno('EISDIR'));
  });
});
