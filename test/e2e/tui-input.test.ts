/**
 * End to end in a real terminal (tmux, 120×40): the TUI's input as a
 * person meets it, in one `opencode` TUI against the loopback fake provider.
 * - ctrl+e with an $EDITOR (a shell script) that quits without saving: the draft stays, nothing is
 *   sent; one that saves: the text comes back into the input box, and only Enter sends it.
 * - `/` lists the commands and filters them as typed; enter runs the one chosen.
 * - `@src` arriving in one read (`send-keys -l`) opens the file completion.
 * - 5,000 lines typed into the terminal without bracketed-paste markers (`send-keys -l`, in
 *   several calls: many reads) become one message, sent once with Enter.
 * - ctrl+\ right after the skeleton frame is a key, not SIGQUIT (raw mode from the first frame).
 *
 * Run alone: `npx vitest run test/e2e/tui-input.test.ts` (needs tmux and a built dist/).
 */
import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import {
  answerTitles,
  CODER_MODEL_FOOTER,
  CODER_MODEL_NAME,
  OPENCODE,
  startTerminal,
  tuiEnv,
  tuiProject,
  type Terminal,
} from '../support/tmux.js';

let fake: FakeProvider;
let tui: Terminal;
let dir: string;
let home: string;

/** The stand-in editor does what this file says: `quit` (exit 0, file untouched), `fail` (exit 3), or `save TEXT`. */
const editorMode = (mode: string) => writeFileSync(join(dir, '.editor-mode'), mode);

/** The editor's text rows (after the `> ` prompt) at the bottom of the screen. */
const FOOTER = new RegExp(`${CODER_MODEL_FOOTER} \\(\\d+\\.\\ds\\)`);

beforeAll(async () => {
  fake = await startFakeProvider([], { sideTurn: answerTitles() });
  dir = tuiProject({ 'README.md': '# demo\n' });
  mkdirSync(join(dir, 'src'));
  writeFileSync(join(dir, 'src', 'app.ts'), 'export {};\n');
  writeFileSync(join(dir, 'src', 'store.ts'), 'export {};\n');
  const editor = join(dir, '.editor.sh');
  writeFileSync(
    editor,
    [
      '#!/bin/sh',
      `mode=$(cat '${join(dir, '.editor-mode')}')`,
      'case "$mode" in',
      '  quit) exit 0 ;;',
      '  fail) exit 3 ;;',
      '  save\\ *) printf "%s\\n" "${mode#save }" > "$1" ;;',
      'esac',
      '',
    ].join('\n'),
  );
  chmodSync(editor, 0o755);
  const env = tuiEnv(fake.anthropicBaseURL, { EDITOR: editor });
  home = env.HOME!;
  tui = await startTerminal({ command: OPENCODE, cwd: dir, env });
  await tui.waitFor(CODER_MODEL_NAME, 20_000);
});

afterAll(async () => {
  await tui?.kill();
  await fake?.close();
  for (const d of [dir, home]) if (d) rmSync(d, { recursive: true, force: true });
});

/** Empties the editor: ctrl+w removes the word before the cursor. */
async function clearEditor(words: number) {
  for (let i = 0; i < words; i++) await tui.press('C-w');
  await tui.waitFor(/^> *$/m);
}

describe('opencode TUI in tmux: input', () => {
  it('ctrl+e: quitting the editor without saving keeps the draft and sends nothing', async () => {
    editorMode('quit');
    await tui.type('my draft');
    await tui.waitFor(/^> my draft/m);
    await tui.press('C-e');
    await tui.waitFor('the editor closed without saving: the draft is unchanged, nothing was sent');
    // the screen is redrawn whole after the editor: the capture may come between the status line and the rest
    await tui.waitFor(/^> my draft/m);
    editorMode('fail');
    await tui.press('C-e');
    await tui.waitFor('the editor exited with code 3: the draft is unchanged, nothing was sent');
    expect(fake.answered).toHaveLength(0);
  });

  it('ctrl+e: what the editor saved comes back into the input box; Enter sends it', async () => {
    fake.push({ text: 'Edited prompt received.' });
    editorMode('save written in the editor');
    await tui.press('C-e');
    const screen = await tui.waitFor('the edited message is in the input box: enter sends it');
    expect(screen).toMatch(/^> written in the editor/m);
    expect(fake.answered).toHaveLength(0);
    await tui.press('Enter');
    await tui.waitFor('Edited prompt received.');
    await tui.waitFor(FOOTER);
    expect(fake.answered).toHaveLength(1);
    expect(fake.answered[0].messages.at(-1)).toMatchObject({
      role: 'user',
      content: [{ type: 'text', text: 'written in the editor' }],
    });
  });

  it('/ lists the commands, filtered as typed; enter runs the chosen one', async () => {
    await tui.type('/');
    const list = await tui.waitFor('/sessions');
    expect(list).toContain('/models');
    await tui.type('mo');
    const filtered = await tui.waitForGone('/sessions');
    expect(filtered).toMatch(/▸ \/models +Choose the model/);
    await tui.press('Enter');
    await tui.waitFor('Claude Opus 5.5');
    await tui.press('Escape');
    await tui.waitForGone('Claude Opus 5.5');
    expect(await tui.screen()).toMatch(/^> *$/m);
  });

  it('`@src` arriving in one read opens the file completion', async () => {
    await tui.type('look at @src');
    const screen = await tui.waitFor('src/store.ts');
    expect(screen).toContain('src/app.ts');
    await tui.press('Escape');
    await tui.waitForGone('src/store.ts');
    await clearEditor(3);
  });

  it(
    '5,000 lines typed without bracketed-paste markers arrive as one message, sent once',
    { timeout: 60_000 },
    async () => {
      fake.push({ text: 'Got the whole paste.' });
      const before = fake.answered.length;
      const lines = Array.from({ length: 5_000 }, (_, i) => `pasted line ${String(i + 1).padStart(4, '0')}`);
      // a tmux command is limited to ~16 KB: 13 send-keys calls, arriving as many reads, with gaps
      // between them as long as starting a tmux client takes
      const perCall = 400;
      for (let at = 0; at < lines.length; at += perCall) {
        const last = at + perCall >= lines.length;
        await tui.type(lines.slice(at, at + perCall).join('\n') + (last ? '' : '\n'));
      }
      const screen = await tui.waitFor('… 4992 more lines', 20_000);
      expect(screen).toMatch(/^ {2}pasted line 5000/m);
      expect(fake.answered).toHaveLength(before);
      await tui.press('Enter');
      await tui.waitFor('Got the whole paste.', 30_000);
      expect(fake.answered).toHaveLength(before + 1);
      expect(fake.answered[before].messages.at(-1)).toMatchObject({
        role: 'user',
        content: [{ type: 'text', text: lines.join('\n') }],
      });
    },
  );
});

describe('opencode TUI in tmux: raw mode from the first frame', () => {
  it('ctrl+\\ pressed once the skeleton is drawn does not end the process (SIGQUIT, exit 131); keys typed then are kept', async () => {
    const env = tuiEnv(fake.anthropicBaseURL);
    const second = await startTerminal({
      command: ['sh', '-c', `"$0" "$1"; echo EXITED:$?; exec sleep 60`, process.execPath, OPENCODE[1]!],
      cwd: dir,
      env,
    });
    try {
      await second.waitFor(/OpenCode v/);
      await second.press('C-\\');
      await second.type('still here');
      const screen = await second.waitFor(/^> still here/m, 20_000);
      expect(screen).not.toContain('EXITED');
      expect(screen).toContain(CODER_MODEL_NAME);
    } finally {
      await second.kill();
      rmSync(env.HOME!, { recursive: true, force: true });
    }
  });
});
