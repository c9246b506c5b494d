import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PermissionAskInput } from '../../src/permission/types.js';
import { patchTool } from '../../src/tools/patch.js';
import { PermissionDeniedError } from '../../src/permission/errors.js';
import { runTool, useRecordingWorkspace } from '../support/recording-context.js';

const ws = useRecordingWorkspace();

function readFile(name: string, content: string | Buffer): string {
  const path = join(ws.dir, name);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, content);
  ws.rec.ctx.fileTimes.record(path);
  return path;
}

/** every file under the temp dir with its bytes, to compare before and after */
function snapshot(dir = ws.dir): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const path = join(entry.parentPath, entry.name);
    out[path.slice(ws.dir.length + 1)] = entry.isDirectory() ? '<dir>' : readFileSync(path).toString('hex');
  }
  return out;
}

const patch = (...lines: string[]) => ['*** Begin Patch', ...lines, '*** End Patch'].join('\n');

describe('patch: all or nothing', () => {
  it("leaves both files untouched when the second file's hunk does not match, and asks nothing", async () => {
    const a = readFile('a.txt', 'alpha\nbeta\n');
    const b = readFile('b.txt', 'one\ntwo\nthree\n');
    const before = snapshot();
    const result = await runTool(
      patchTool,
      {
        patch_text: patch(
          '*** Update File: a.txt',
          '-alpha',
          '+ALPHA',
          '*** Update File: b.txt',
          '@@',
          ' one',
          '-too',
          '+2',
        ),
      },
      ws.rec.ctx,
    );
    expect(result).toEqual({
      output:
        `${b}: hunk 1 (patch line 6): its context and removed lines were not found in the file.\n` +
        'The closest lines in the file (line 1):\n' +
        '     1|one\n' +
        '     2|two\n\n' +
        'No file was changed. Fix the hunk from the closest lines shown (or view the file again) and send the whole patch again.',
      isError: true,
    });
    expect(snapshot()).toEqual(before);
    expect(ws.rec.permissions).toEqual([]);
    expect(ws.rec.history).toEqual([]);
    expect(readFileSync(a, 'utf8')).toBe('alpha\nbeta\n');
  });

  it('reports the mismatching hunk of every file at once', async () => {
    const a = readFile('a.txt', 'alpha\n');
    const b = readFile('b.txt', 'beta\n');
    const result = await runTool(
      patchTool,
      { patch_text: patch('*** Update File: a.txt', '-alpa', '+x', '*** Update File: b.txt', '-bet', '+y') },
      ws.rec.ctx,
    );
    expect(result.output).toBe(
      `${a}: hunk 1 (patch line 3): its context and removed lines were not found in the file.\n` +
        'The closest lines in the file (line 1):\n     1|alpha\n\n' +
        `${b}: hunk 1 (patch line 6): its context and removed lines were not found in the file.\n` +
        'The closest lines in the file (line 1):\n     1|beta\n\n' +
        'No file was changed. Fix the hunk from the closest lines shown (or view the file again) and send the whole patch again.',
    );
  });

  it('puts back every file, byte for byte, when a write fails in the middle', async () => {
    const a = readFile('a.txt', Buffer.from('caf\xE9 one\r\ntwo\r\n', 'latin1'));
    const d = readFile('d.txt', 'to delete\n');
    chmodSync(d, 0o741);
    ws.rec.ctx.fileTimes.record(d);
    const m = readFile('m.txt', 'move me\n');
    const before = snapshot();
    const blocker = join(ws.dir, 'blocker');
    const blocked = join(blocker, 'new.txt');
    // once everything is matched and allowed, a file appears where the last file's directory must go
    const ask = ws.rec.ctx.askPermission;
    ws.rec.ctx.askPermission = async (input: PermissionAskInput) => {
      await ask(input);
      if (input.path === blocked) writeFileSync(blocker, 'in the way');
    };

    const result = await runTool(
      patchTool,
      {
        patch_text: patch(
          '*** Update File: a.txt',
          '-two',
          '+TWO',
          '*** Delete File: d.txt',
          '*** Update File: m.txt',
          '*** Move to: moved/deeper/m.txt',
          '-move me',
          '+moved',
          '*** Add File: blocker/new.txt',
          '+never',
        ),
      },
      ws.rec.ctx,
    );

    expect(ws.rec.permissions.map((p) => p.action)).toEqual(['update', 'delete', 'update', 'create']);
    expect(result.isError).toBe(true);
    expect(result.output).toBe(
      `failed to apply patch: writing ${blocked} failed: cannot create ${blocked}: ${blocker} is not a directory. ` +
        'The files already written were put back as they were: no file was changed.',
    );
    expect(snapshot()).toEqual({ ...before, blocker: Buffer.from('in the way').toString('hex') });
    expect(readFileSync(a)).toEqual(Buffer.from('caf\xE9 one\r\ntwo\r\n', 'latin1'));
    expect(statSync(d).mode & 0o777).toBe(0o741);
    expect(existsSync(join(ws.dir, 'moved'))).toBe(false);
    expect(readFileSync(m, 'utf8')).toBe('move me\n');
    expect(ws.rec.history).toEqual([]);
  });

  it('writes nothing when the second file is denied', async () => {
    const a = readFile('a.txt', 'a\n');
    readFile('b.txt', 'b\n');
    const before = snapshot();
    ws.rec.ctx.askPermission = async (input) => {
      ws.rec.permissions.push(input);
      if (ws.rec.permissions.length === 2) throw new PermissionDeniedError();
    };
    const result = await runTool(
      patchTool,
      {
        patch_text: patch(
          '*** Update File: a.txt',
          '-a',
          '+A',
          '*** Update File: b.txt',
          '-b',
          '+B',
          '*** Add File: c.txt',
          '+c',
        ),
      },
      ws.rec.ctx,
    );
    expect(result).toEqual({ output: 'Permission denied', isError: true, permissionDenied: true });
    expect(ws.rec.permissions.map((p) => p.description)).toEqual([
      `Update file ${a}`,
      `Update file ${join(ws.dir, 'b.txt')}`,
    ]);
    expect(snapshot()).toEqual(before);
    expect(ws.rec.history).toEqual([]);
  });

  it('writes nothing when a file changes while permission is asked', async () => {
    const a = readFile('a.txt', 'a\n');
    const b = readFile('b.txt', 'b\n');
    ws.rec.ctx.askPermission = async (input) => {
      ws.rec.permissions.push(input);
      if (input.path === b) writeFileSync(b, 'b changed elsewhere\n');
    };
    const result = await runTool(
      patchTool,
      { patch_text: patch('*** Update File: a.txt', '-a', '+A', '*** Update File: b.txt', '-b', '+B') },
      ws.rec.ctx,
    );
    expect(result).toEqual({
      output: `File ${b} changed while waiting for permission. No file was changed. Read it again with the view tool and redo the patch.`,
      isError: true,
    });
    expect(readFileSync(a, 'utf8')).toBe('a\n');
    expect(readFileSync(b, 'utf8')).toBe('b changed elsewhere\n');
  });
});
