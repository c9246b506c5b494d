/**
 * A patch names each file once, however it is spelled (wrong patches): two sections on
 * one file through a symbolic link, a hard link or a linked folder were applied one over the other —
 * the first change was lost and the result said "2 files changed". Now refused before anything is
 * written, naming both spellings. Exact messages and bytes.
 */
import { linkSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { patchTool } from '../../src/tools/patch.js';
import { runTool, useRecordingWorkspace } from '../support/recording-context.js';

const ws = useRecordingWorkspace();

describe('patch: one file under two spellings', () => {
  it.each([
    ['a symbolic link', () => symlinkSync('a.txt', join(ws.dir, 'L')), 'L'],
    ['a hard link', () => linkSync(join(ws.dir, 'a.txt'), join(ws.dir, 'H')), 'H'],
    ['a link to the folder', () => symlinkSync('.', join(ws.dir, 'D')), 'D/a.txt'],
    ['a chain of links', () => (symlinkSync('M', join(ws.dir, 'L')), symlinkSync('a.txt', join(ws.dir, 'M'))), 'L'],
  ])('through %s: refused, nothing written', async (_name, make, other) => {
    const a = join(ws.dir, 'a.txt');
    writeFileSync(a, 'one\ntwo\n');
    make();
    for (const p of [a, join(ws.dir, other)]) ws.rec.ctx.fileTimes.record(p);
    const result = await runTool(
      patchTool,
      {
        patch_text: [
          '*** Begin Patch',
          '*** Update File: a.txt',
          '@@',
          '-one',
          '+ONE',
          `*** Update File: ${other}`,
          '@@',
          '-two',
          '+TWO',
          '*** End Patch',
        ].join('\n'),
      },
      ws.rec.ctx,
    );
    expect(result).toMatchObject({
      isError: true,
      output: `failed to parse patch: line 6: ${join(ws.dir, other)} (the same file as ${a}) is already changed at line 2; put all changes to one file in one section`,
    });
    expect(readFileSync(a, 'utf8')).toBe('one\ntwo\n');
  });

  it('a Move onto a link to another file of the patch is refused', async () => {
    writeFileSync(join(ws.dir, 'b.txt'), 'b\n');
    mkdirSync(join(ws.dir, 'sub'));
    symlinkSync('../b.txt', join(ws.dir, 'sub', 'to-b'));
    writeFileSync(join(ws.dir, 'c.txt'), 'c\n');
    for (const p of ['b.txt', 'c.txt']) ws.rec.ctx.fileTimes.record(join(ws.dir, p));
    const result = await runTool(
      patchTool,
      {
        patch_text: [
          '*** Begin Patch',
          '*** Delete File: b.txt',
          '*** Update File: c.txt',
          '*** Move to: sub/to-b',
          '*** End Patch',
        ].join('\n'),
      },
      ws.rec.ctx,
    );
    expect(result.output).toBe(
      `failed to parse patch: line 3: ${join(ws.dir, 'sub', 'to-b')} (the same file as ${join(ws.dir, 'b.txt')}) is already changed at line 2; put all changes to one file in one section`,
    );
    expect(readFileSync(join(ws.dir, 'b.txt'), 'utf8')).toBe('b\n');
  });

  it('two different files still apply', async () => {
    writeFileSync(join(ws.dir, 'x.txt'), 'x\n');
    writeFileSync(join(ws.dir, 'y.txt'), 'y\n');
    for (const p of ['x.txt', 'y.txt']) ws.rec.ctx.fileTimes.record(join(ws.dir, p));
    const result = await runTool(
      patchTool,
      {
        patch_text: [
          '*** Begin Patch',
          '*** Update File: x.txt',
          '@@',
          '-x',
          '+X',
          '*** Update File: y.txt',
          '@@',
          '-y',
          '+Y',
          '*** End Patch',
        ].join('\n'),
      },
      ws.rec.ctx,
    );
    expect(result.isError).toBe(false);
    expect(readFileSync(join(ws.dir, 'x.txt'), 'utf8') + readFileSync(join(ws.dir, 'y.txt'), 'utf8')).toBe('X\nY\n');
  });
});
