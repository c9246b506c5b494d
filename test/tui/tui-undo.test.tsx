/**
 * Undo in the TUI, the whole app through ink-testing-library against a real App and the
 * fake provider: alt+u after a turn that edited a file puts it back and shows the note in the
 * conversation and the outcome in the status bar; alt+r redoes; a file changed since is left alone.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tuiPerTest } from '../support/render-tui.js';
import type { TuiApp as TestApp } from '../support/tui-app.js';

const tui = tuiPerTest();
let t: TestApp | undefined;

const ALT_U = '\u001bu';
const ALT_R = '\u001br';

/** The TUI after one turn that changed a.txt from `one` to `two` (the edit allowed with `a`). */
async function afterOneTurn() {
  t = await tui.start([
    { toolCalls: [{ name: 'view', input: { file_path: 'a.txt' } }] },
    { toolCalls: [{ name: 'edit', input: { file_path: 'a.txt', old_string: 'one', new_string: 'two' } }] },
    { text: 'Edited.' },
  ]);
  writeFileSync(join(t.dir, 'a.txt'), 'one\n');
  const { ui, store, waitFor, type } = tui.render();
  await type('change a');
  await type('\r');
  await waitFor((f) => f.includes('Permission Required'));
  await type('a');
  await waitFor((f) => f.includes('Edited.') && !f.includes('Permission Required'));
  await waitFor(() => !store.getSnapshot().busy);
  expect(readFileSync(join(t.dir, 'a.txt'), 'utf8')).toBe('two\n');
  return { ui, store, waitFor, type, file: join(t.dir, 'a.txt') };
}

describe('undo in the TUI', () => {
  it('alt+u restores the file, shows the note and the status; alt+r puts the change back', async () => {
    const { store, waitFor, type, file } = await afterOneTurn();
    await type(ALT_U);
    await waitFor((f) => f.includes('↶ The user undid') && f.includes('Undid "change a": 1 file'));
    expect(readFileSync(file, 'utf8')).toBe('one\n');
    expect(
      store
        .getSnapshot()
        .logs.filter((e) => e.message.startsWith('Undid'))
        .map((e) => e.message),
    ).toEqual(['Undid "change a": 1 file']);
    expect(store.getSnapshot().promptHistory).toEqual(['change a']);

    await type(ALT_R);
    await waitFor((f) => f.includes('↷ The user redid') && f.includes('Redid "change a": 1 file'));
    expect(readFileSync(file, 'utf8')).toBe('two\n');
  });

  it('leaves a file changed since alone and says where the difference is', async () => {
    const { store, waitFor, type, file } = await afterOneTurn();
    writeFileSync(file, 'two\nmine\n');
    await type(ALT_U);
    await waitFor((f) => f.includes('Nothing undone'));
    expect(store.getSnapshot().status?.text).toBe(
      'Nothing undone: every file of the turn changed since; the logs page (ctrl+l) shows the difference',
    );
    // one entry on the logs page: the status line, the report under it
    const entries = store.getSnapshot().logs.filter((e) => e.message.startsWith('Nothing undone'));
    expect(entries.map((e) => [e.level, e.message, e.details])).toEqual([
      [
        'warn',
        'Nothing undone: every file of the turn changed since; the logs page (ctrl+l) shows the difference',
        'Nothing undone: every file of the turn "change a" changed since.\n' +
          'Left alone, changed since (your changes are kept):\n' +
          '  a.txt: changed since\n' +
          '    --- a/a.txt\n    +++ b/a.txt\n    @@ -1,1 +1,2 @@\n     two\n    +mine\n',
      ],
    ]);
    expect(readFileSync(file, 'utf8')).toBe('two\nmine\n');
  });
  it('is refused while a reply runs, and in a session without messages', async () => {
    const { store, waitFor, type, file } = await afterOneTurn();
    t!.fake.push({ text: ['Still ', 'thinking ', 'about it.'], chunkDelayMs: 400 });
    await type('anything else?');
    await type('\r');
    await waitFor(() => store.getSnapshot().busy);
    await type(ALT_U);
    await waitFor((f) => f.includes('The agent is busy: undo after the reply finishes'));
    expect(store.getSnapshot().status?.text).toBe(
      'The agent is busy: undo after the reply finishes, or press esc to cancel it',
    );
    expect(readFileSync(file, 'utf8')).toBe('two\n');
    await waitFor((f) => f.includes('about it.') && !store.getSnapshot().busy);
    store.openSession(undefined);
    await store.redoTurn();
    expect(store.getSnapshot().status?.text).toBe('Nothing to redo: this session has no messages yet');
  });
});
