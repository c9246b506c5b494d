import { afterEach, describe, expect, it, vi } from 'vitest';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { editInExternalEditor, editorCommand, externalEditorRunner } from '../../src/tui/input/external-editor.js';
import { cleanupTempDirs, tempDir } from '../support/temp-tree.js';

afterEach(cleanupTempDirs);

/** A stand-in editor: records the file it was given, appends a line, exits with `code`. */
function fakeEditor(dir: string, code = 0): string {
  const path = join(dir, 'fake editor');
  writeFileSync(path, `#!/bin/sh\nprintf '%s' "$1" > '${join(dir, 'file-given')}'\nprintf '\\nadded by the editor\\n\\n' >> "$1"\nexit ${code}\n`);
  chmodSync(path, 0o755);
  return `'${path}'`;
}

describe('external editor', () => {
  it('edits the text in a temp msg_*.md file and returns it without trailing newlines', () => {
    const dir = tempDir();
    expect(editInExternalEditor('my draft', fakeEditor(dir))).toBe('my draft\nadded by the editor');
    const given = readFileSync(join(dir, 'file-given'), 'utf8');
    expect(basename(given)).toMatch(/^msg_.*\.md$/);
  });

  it('returns undefined when the editor exits with a non-zero code', () => {
    const dir = tempDir();
    expect(editInExternalEditor('my draft', fakeEditor(dir, 1))).toBeUndefined();
  });

  it('says so when the editor does not exist (it used to read as "did not exit cleanly")', () => {
    expect(() => editInExternalEditor('my draft', '/nonexistent/editor')).toThrow(
      'editor not found or not executable: /nonexistent/editor; set $VISUAL or $EDITOR',
    );
  });

  it('picks $VISUAL, then $EDITOR, then vi when on PATH, else nano', () => {
    const withVi = tempDir();
    writeFileSync(join(withVi, 'vi'), '#!/bin/sh\n');
    chmodSync(join(withVi, 'vi'), 0o755);
    const empty = tempDir();
    expect(editorCommand({ VISUAL: 'code --wait', EDITOR: 'nano', PATH: withVi })).toBe('code --wait');
    expect(editorCommand({ EDITOR: 'emacs -nw', PATH: withVi })).toBe('emacs -nw');
    expect(editorCommand({ EDITOR: '  ', PATH: withVi })).toBe('vi');
    expect(editorCommand({ PATH: empty })).toBe('nano');
  });

  it('the runner releases raw mode and the screen modes while the editor runs, then restores and redraws', async () => {
    const dir = tempDir();
    const calls: string[] = [];
    const stdout = { isTTY: true, write: (s: string) => calls.push(JSON.stringify(s)) } as unknown as NodeJS.WriteStream;
    const runner = externalEditorRunner(
      { setRawMode: (on) => calls.push(`raw ${on}`), stdout, redraw: () => calls.push('redraw') },
      () => {
        calls.push('editor');
        return fakeEditor(dir);
      },
    );
    expect(await runner('x')).toBe('x\nadded by the editor');
    expect(calls).toEqual([
      'raw false',
      JSON.stringify('\u001b[?2004l\u001b[?25h\u001b[?1049l'),
      'editor',
      JSON.stringify('\u001b[?1049h\u001b[?2004h\u001b[?25l\u001b[H\u001b[2J'),
      'raw true',
      'redraw',
    ]);
    const quiet = { isTTY: false } as NodeJS.WriteStream;
    const failing = externalEditorRunner({ setRawMode: vi.fn(), stdout: quiet }, () => `'${join(dir, 'missing')}'`);
    await expect(failing('x')).rejects.toThrow('editor not found or not executable'); // the shell exits 127
  });
});
