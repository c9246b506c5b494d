/**
 * The status note after ctrl+e (the editor quit without saving: the draft is unchanged) is about the
 * draft; once that draft is sent it is stale, and the status bar drops it at the send instead of
 * keeping it for its ten seconds. The whole TUI, a real app, $VISUAL a script that quits at once.
 */
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tuiPerTest } from '../support/render-tui.js';

const tui = tuiPerTest();
afterEach(() => {
  vi.unstubAllEnvs();
});

const NOTE = 'the editor closed without saving: the draft is unchanged, nothing was sent';

describe('a status note when the prompt is sent', () => {
  it('the note after ctrl+e then :q! goes when the draft is sent', async () => {
    const t = await tui.start([{ text: 'Answered the draft.' }]);
    const editor = join(t.dir, 'quit-editor.sh');
    writeFileSync(editor, '#!/bin/sh\nexit 0\n');
    chmodSync(editor, 0o755);
    vi.stubEnv('VISUAL', editor);
    const { type, waitFor, ui } = tui.render();
    await type('my draft');
    await waitFor((f) => /^> my draft/m.test(f));
    await type('\u0005'); // ctrl+e
    await waitFor((f) => f.includes(NOTE));
    await type('\r');
    await waitFor((f) => f.includes('Answered the draft.'));
    expect(ui.lastFrame()).not.toContain(NOTE);
  });
});
