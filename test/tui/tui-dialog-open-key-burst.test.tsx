/**
 * The key that opens a dialog and the keys after it, in ONE read (`tmux send-keys C-f Down Enter`, a
 * fast typist over ssh): the keys after it go to the dialog. They went to the editor under it: the
 * input router queued the next key before React 19 queued the render that mounts the dialog, so
 * ctrl+f then ↓ left the picker on its first row. The whole TUI on a real app (ink-testing-library).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tuiPerTest } from '../support/render-tui.js';

const tui = tuiPerTest();
/** A PNG signature and header chunk: enough for the attachment's type sniffing. */
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

describe('a dialog opened and used in one read', () => {
  it('ctrl+f ↓ enter attach the second row of the picker', async () => {
    const t = await tui.start([]);
    mkdirSync(join(t.dir, 'assets'));
    writeFileSync(join(t.dir, 'pic.png'), PNG);
    const { ui, waitFor } = tui.render();
    await waitFor((f) => f.includes('>'));
    ui.stdin.write('\u0006\u001b[B\r'); // ctrl+f, Down, Enter
    const frame = await waitFor((f) => f.includes('[1] pic.png'));
    expect(frame).not.toContain('Attach an image');
  });

  it("ctrl+f ↓ select the picker's second row (the ↓ is not the editor's)", async () => {
    const t = await tui.start([]);
    mkdirSync(join(t.dir, 'assets'));
    writeFileSync(join(t.dir, 'pic.png'), PNG);
    const { ui, waitFor } = tui.render();
    await waitFor((f) => f.includes('>'));
    ui.stdin.write('\u0006\u001b[B');
    const frame = await waitFor((f) => f.includes('> pic.png'));
    expect(frame).toContain('  assets/');
  });

  it('ctrl+k ↓ enter run the second command of the list (its items are there when the ↓ comes)', async () => {
    await tui.start([]);
    const { ui, waitFor } = tui.render();
    await waitFor((f) => f.includes('>'));
    ui.stdin.write('\u000b\u001b[B\r'); // ctrl+k, Down, Enter: "Switch Session"
    const frame = await waitFor((f) => f.includes('Switch Session') && !f.includes('New Session'));
    expect(frame).toContain('enter open · r rename · d delete · esc close');
    expect(frame).not.toContain('Commands');
  });
});
