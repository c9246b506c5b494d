/**
 * ctrl+u in the whole TUI (ink-testing-library, a real app, the fake provider) clears the input line
 * up to the cursor, as in shells; the message list scrolls up half a page with ctrl+alt+u instead.
 */
import { describe, expect, it } from 'vitest';
import { tick, tuiPerTest } from '../support/render-tui.js';

const tui = tuiPerTest();

describe('ctrl+u in the TUI', () => {
  it('clears the line being typed; what is typed next is sent alone', async () => {
    const t = await tui.start([{ text: 'Answered.' }]);
    const { ui, type, waitFor } = tui.render();
    await type('a draft to throw away');
    await waitFor((f) => f.includes('> a draft to throw away'));
    await type('\u0015'); // ctrl+u
    await waitFor((f) => !f.includes('a draft to throw away'));
    expect(ui.lastFrame()).toMatch(/^> *$/m);
    await type('kept');
    await tick(50);
    await type('\r');
    await waitFor((f) => f.includes('Answered.'));
    expect(t.fake.answered[0]!.messages.at(-1)).toMatchObject({
      role: 'user',
      content: [{ type: 'text', text: 'kept' }],
    });
  });
});
