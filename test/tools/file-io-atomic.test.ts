/**
 * writeFileAtomic when the disk fails mid-way: the target keeps its old
 * content and no temporary file is left. The failure is simulated by making rename fail, the one step
 * that can't be made to fail for real in a test without root-proof permissions or a full disk.
 */
import * as fs from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { writeFileAtomic } from '../../src/tools/file-io.js';
import { tempDir } from '../support/recording-context.js';

vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  return {
    ...real,
    renameSync: vi.fn((from: fs.PathLike, to: fs.PathLike) => {
      if (String(to).endsWith('fail.txt'))
        throw Object.assign(new Error('ENOSPC: no space left on device, rename'), { code: 'ENOSPC' });
      real.renameSync(from, to);
    }),
  };
});

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => tmp.remove());

describe('writeFileAtomic failure', () => {
  it('leaves the target untouched and removes its temporary file', () => {
    const path = join(tmp.dir, 'fail.txt');
    fs.writeFileSync(path, 'precious\n');
    expect(() => writeFileAtomic(path, Buffer.from('half'))).toThrow('ENOSPC');
    expect(fs.readFileSync(path, 'utf8')).toBe('precious\n');
    expect(fs.readdirSync(tmp.dir)).toEqual(['fail.txt']);
  });

  it('still writes other files (the mock only fails one name)', () => {
    const path = join(tmp.dir, 'ok.txt');
    writeFileAtomic(path, Buffer.from('fine\n'));
    expect(fs.readFileSync(path, 'utf8')).toBe('fine\n');
  });
});
