import { existsSync, mkdirSync, readFileSync, statSync, chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { patchTool } from '../../src/tools/patch.js';
import { runTool, useRecordingWorkspace } from '../support/recording-context.js';

const ws = useRecordingWorkspace();

/** writes `content` at `name` (in the temp dir) and marks it read, as view would */
function readFile(name: string, content: string | Buffer): string {
  const path = join(ws.dir, name);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, content);
  ws.rec.ctx.fileTimes.record(path);
  return path;
}

const patch = (...lines: string[]) => ['*** Begin Patch', ...lines, '*** End Patch'].join('\n');

describe('patch: applying to files', () => {
  it('updates two hunks of one file and reports counts, diff and history', async () => {
    const path = readFile(
      'src/app.ts',
      'import a\n\nfunction main() {\n  run(1);\n}\n\nfunction other() {\n  run(2);\n}\n',
    );
    const result = await runTool(
      patchTool,
      {
        patch_text: patch(
          '*** Update File: src/app.ts',
          '@@ function main() {',
          '-  run(1);',
          '+  run(1, true);',
          '@@ function other() {',
          '-  run(2);',
          '+  run(2, true);',
          '+  done();',
        ),
      },
      ws.rec.ctx,
    );
    const after =
      'import a\n\nfunction main() {\n  run(1, true);\n}\n\nfunction other() {\n  run(2, true);\n  done();\n}\n';
    expect(readFileSync(path, 'utf8')).toBe(after);
    const diff =
      '--- a/src/app.ts\n+++ b/src/app.ts\n@@ -1,9 +1,10 @@\n import a\n \n function main() {\n-  run(1);\n+  run(1, true);\n }\n \n function other() {\n-  run(2);\n+  run(2, true);\n+  done();\n }\n';
    expect(result).toEqual({
      output: 'Patch applied successfully. 1 files changed, 3 additions, 2 removals',
      isError: false,
      metadata: { files_changed: [path], additions: 3, removals: 2, diff },
    });
    expect(ws.rec.history).toEqual([
      {
        sessionId: 'session-1',
        path,
        before: 'import a\n\nfunction main() {\n  run(1);\n}\n\nfunction other() {\n  run(2);\n}\n',
        after,
      },
    ]);
    // our own write counts as read: a second patch needs no new view
    expect(ws.rec.ctx.fileTimes.check(path)).toEqual({ status: 'ok' });
  });

  it('moves a file: the old path is gone, the new one has the content and the mode, history records both', async () => {
    const from = readFile('old/name.sh', '#!/bin/sh\necho old\n');
    chmodSync(from, 0o755);
    ws.rec.ctx.fileTimes.record(from);
    const to = join(ws.dir, 'bin/new/name.sh');
    const result = await runTool(
      patchTool,
      {
        patch_text: patch(
          '*** Update File: old/name.sh',
          '*** Move to: bin/new/name.sh',
          '@@',
          ' #!/bin/sh',
          '-echo old',
          '+echo new',
        ),
      },
      ws.rec.ctx,
    );
    expect(result.output).toBe('Patch applied successfully. 1 files changed, 1 additions, 1 removals');
    expect(existsSync(from)).toBe(false);
    expect(readFileSync(to, 'utf8')).toBe('#!/bin/sh\necho new\n');
    expect(statSync(to).mode & 0o777).toBe(0o755);
    expect(result.metadata).toEqual({
      files_changed: [to],
      additions: 1,
      removals: 1,
      diff: '--- a/old/name.sh\n+++ b/bin/new/name.sh\n@@ -1,2 +1,2 @@\n #!/bin/sh\n-echo old\n+echo new\n',
    });
    expect(ws.rec.history).toEqual([
      { sessionId: 'session-1', path: from, before: '#!/bin/sh\necho old\n', after: '' },
      { sessionId: 'session-1', path: to, before: null, after: '#!/bin/sh\necho new\n' },
    ]);
    expect(ws.rec.ctx.fileTimes.check(to)).toEqual({ status: 'ok' });
  });

  it('renames a file with no hunk, byte for byte', async () => {
    const bytes = Buffer.from('\xEF\xBB\xBFkeep\r\nme', 'latin1');
    const from = readFile('a.txt', bytes);
    const result = await runTool(
      patchTool,
      { patch_text: patch('*** Update File: a.txt', '*** Move to: b.txt') },
      ws.rec.ctx,
    );
    expect(result.output).toBe('Patch applied successfully. 1 files changed, 0 additions, 0 removals');
    expect(existsSync(from)).toBe(false);
    expect(readFileSync(join(ws.dir, 'b.txt'))).toEqual(bytes);
  });

  it('adds a file (with its directories, ending with a newline) and deletes another in one patch', async () => {
    const gone = readFile('gone.txt', 'bye\n');
    const result = await runTool(
      patchTool,
      {
        patch_text: patch(
          '*** Add File: lib/deep/hello.py',
          '+def hello():',
          '+    return 1',
          '*** Delete File: gone.txt',
        ),
      },
      ws.rec.ctx,
    );
    const added = join(ws.dir, 'lib/deep/hello.py');
    expect(result).toEqual({
      output: 'Patch applied successfully. 2 files changed, 2 additions, 1 removals',
      isError: false,
      metadata: {
        files_changed: [added, gone],
        additions: 2,
        removals: 1,
        diff:
          '--- a/lib/deep/hello.py\n+++ b/lib/deep/hello.py\n@@ -0,0 +1,2 @@\n+def hello():\n+    return 1\n' +
          '--- a/gone.txt\n+++ b/gone.txt\n@@ -1,1 +0,0 @@\n-bye\n',
      },
    });
    expect(readFileSync(added, 'utf8')).toBe('def hello():\n    return 1\n');
    expect(existsSync(gone)).toBe(false);
    expect(ws.rec.history).toEqual([
      { sessionId: 'session-1', path: added, before: null, after: 'def hello():\n    return 1\n' },
      { sessionId: 'session-1', path: gone, before: 'bye\n', after: '' },
    ]);
  });

  it('keeps CRLF line endings in a CRLF file updated with an LF patch', async () => {
    const path = readFile('win.txt', 'one\r\ntwo\r\nthree\r\n');
    const result = await runTool(
      patchTool,
      { patch_text: patch('*** Update File: win.txt', '@@', ' one', '-two', '+TWO', '+2.5') },
      ws.rec.ctx,
    );
    expect(result.isError).toBe(false);
    expect(readFileSync(path, 'latin1')).toBe('one\r\nTWO\r\n2.5\r\nthree\r\n');
    expect(ws.rec.history[0].after).toBe('one\nTWO\n2.5\nthree\n');
  });

  it('keeps a BOM, and the LF of an unchanged line in a mixed file', async () => {
    const path = readFile('mixed.txt', Buffer.from('\uFEFFa\r\nb\nc\r\nd\r\n'));
    const result = await runTool(
      patchTool,
      { patch_text: patch('*** Update File: mixed.txt', '@@', ' c', '-d', '+D') },
      ws.rec.ctx,
    );
    expect(result.isError).toBe(false);
    expect(readFileSync(path)).toEqual(Buffer.from('\uFEFFa\r\nb\nc\r\nD\r\n'));
  });

  it('writes a Latin-1 file back in Latin-1, changing only the patched line', async () => {
    const path = readFile('fr.txt', Buffer.from('caf\xE9 au lait\nsecond\n', 'latin1'));
    const result = await runTool(
      patchTool,
      { patch_text: patch('*** Update File: fr.txt', '@@', ' café au lait', '-second', '+deuxième') },
      ws.rec.ctx,
    );
    expect(result.isError).toBe(false);
    expect(readFileSync(path)).toEqual(Buffer.from('caf\xE9 au lait\ndeuxi\xE8me\n', 'latin1'));
    expect(ws.rec.history[0]).toMatchObject({ before: 'café au lait\nsecond\n', after: 'café au lait\ndeuxième\n' });
  });

  it('appends with an End-of-File hunk to a file that ends with a newline', async () => {
    const path = readFile('list.txt', 'a\nb\n');
    const result = await runTool(
      patchTool,
      { patch_text: patch('*** Update File: list.txt', '@@', ' b', '+c', '*** End of File') },
      ws.rec.ctx,
    );
    expect(result.isError).toBe(false);
    expect(readFileSync(path, 'utf8')).toBe('a\nb\nc\n');
  });

  it('takes absolute paths too', async () => {
    const path = readFile('abs.txt', 'x\n');
    const result = await runTool(patchTool, { patch_text: patch(`*** Update File: ${path}`, '-x', '+y') }, ws.rec.ctx);
    expect(result.isError).toBe(false);
    expect(readFileSync(path, 'utf8')).toBe('y\n');
  });
});
