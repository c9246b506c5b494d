import { afterEach, describe, expect, it, vi } from 'vitest';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import {
  editInExternalEditor,
  editorCommand,
  externalEditMessage,
  externalEditorRunner,
  type ExternalEditResult,
} from '../../src/tui/input/external-editor.js';
import { cleanupTempDirs, tempDir } from '../support/temp-tree.js';

afterEach(cleanupTempDirs);

/** A stand-in editor: records the file it was given, appends a line, exits with `code`. */
function fakeEditor(dir: string, code = 0): string {
  const path = join(dir, 'fake editor');
  writeFileSync(
    path,
    `#!/bin/sh\nprintf '%s' "$1" > '${join(dir, 'file-given')}'\nprintf '\\nadded by the editor\\n\\n' >> "$1"\nexit ${code}\n`,
  );
  chmodSync(path, 0o755);
  return `'${path}'`;
}

describe('external editor', () => {
  it('edits the text in a temp msg_*.md file and returns what was saved, without trailing newlines', () => {
    const dir = tempDir();
    expect(editInExternalEditor('my draft', fakeEditor(dir))).toEqual({
      outcome: 'saved',
      text: 'my draft\nadded by the editor',
    });
    const given = readFileSync(join(dir, 'file-given'), 'utf8');
    expect(basename(given)).toMatch(/^msg_.*\.md$/);
  });

  it('says the editor failed when it exits with a non-zero code', () => {
    const dir = tempDir();
    expect(editInExternalEditor('my draft', fakeEditor(dir, 1))).toEqual({
      outcome: 'failed',
      exitCode: 1,
      signal: null,
    });
  });

  it('says unchanged when the editor quits without saving (so the draft is not sent), trailing newlines and all', () => {
    // `true` exits 0 and touches nothing: what quitting vi with :q does to the file
    expect(editInExternalEditor('my draft\n\n', 'true')).toEqual({ outcome: 'unchanged' });
  });

  it('says so when the editor removed the file', () => {
    expect(() => editInExternalEditor('my draft', 'rm')).toThrow('cannot read what the editor saved (ENOENT)');
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
    const stdout = {
      isTTY: true,
      write: (s: string) => calls.push(JSON.stringify(s)),
    } as unknown as NodeJS.WriteStream;
    const runner = externalEditorRunner(
      { setRawMode: (on) => calls.push(`raw ${on}`), stdout, redraw: () => calls.push('redraw') },
      () => {
        calls.push('editor');
        return fakeEditor(dir);
      },
    );
    expect(await runner('x')).toEqual({ outcome: 'saved', text: 'x\nadded by the editor' });
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

describe('the status line after an external edit', () => {
  const rows: Array<[result: ExternalEditResult, text: string, level: 'info' | 'warn']> = [
    [{ outcome: 'saved', text: 'fix it' }, 'the edited message is in the input box: enter sends it', 'info'],
    [{ outcome: 'saved', text: ' \n' }, 'the editor saved an empty message', 'warn'],
    [{ outcome: 'unchanged' }, 'the editor closed without saving: the draft is unchanged, nothing was sent', 'info'],
    [
      { outcome: 'failed', exitCode: 1, signal: null },
      'the editor exited with code 1: the draft is unchanged, nothing was sent',
      'warn',
    ],
    [
      { outcome: 'failed', exitCode: null, signal: 'SIGKILL' },
      'the editor was stopped by SIGKILL: the draft is unchanged, nothing was sent',
      'warn',
    ],
  ];
  it.each(rows)('%j → %s', (result, text, level) => {
    expect(externalEditMessage(result)).toEqual({ text, level });
  });
});
