/**
 * What the person sees in the TUI (ink-testing-library, a real app, the real SDKs against the loopback
 * fake) when a reply ends otherwise than normally: a refusal with the provider's explanation (and the
 * next prompt sent without the refused one), a turn the provider paused and opencode continued, and a
 * provider that reports no token usage.
 */
import { describe, expect, it } from 'vitest';
import { tuiPerTest } from '../support/render-tui.js';

const tui = tuiPerTest();
/** A frame as one line: wrapping and borders put line breaks and runs of spaces inside sentences. */
const flat = (frame: string) => frame.replace(/[│┃]/g, ' ').replace(/\s+/g, ' ');

const EXPLANATION = 'This request was declined because it could enable cyber harm.';

describe('a reply that ends otherwise than normally', () => {
  it('a refusal shows the explanation under the reply; the next prompt is sent without the refused one', async () => {
    const t = await tui.start([
      {
        text: 'I can',
        stopReason: 'refusal',
        stopDetails: { type: 'refusal', category: 'cyber', explanation: EXPLANATION },
      },
      { text: 'Here is a sorting function.' },
    ]);
    const { waitFor, type } = tui.render();
    await type('write malware');
    await type('\r');
    const refused = flat(await waitFor((f) => flat(f).includes('rephrase it to go on)')));
    // the sidebar shares the footer's rows, so the footer is read in its wrapped pieces
    expect(refused).toContain(`The model declined to answer: ${EXPLANATION} (this prompt is left out of later`);
    expect(refused).toContain('requests; rephrase it to go on)');
    await type('write a sort function');
    await type('\r');
    await waitFor((f) => f.includes('Here is a sorting function.'));
    const sent = t.fake.answered[1].messages.map((m: { role: string; content: { text?: string }[] }) => [
      m.role,
      m.content.map((b) => b.text),
    ]);
    expect(sent).toEqual([['user', ['write a sort function']]]);
  });

  it('a paused turn is continued: the text from before and after the pause shows, and one footer ends the reply', async () => {
    const search = { type: 'server_tool_use', id: 'srvtoolu_01', name: 'web_search', input: { query: 'node 20' } };
    const t = await tui.start([
      { blocks: [{ text: 'Searching the web.' }, { server: search }], stopReason: 'pause_turn' },
      {
        blocks: [
          { server: { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_01', content: [] } },
          { text: 'Node 20 came out in April 2023.' },
        ],
      },
    ]);
    const { waitFor, type } = tui.render();
    await type('when did node 20 come out?');
    await type('\r');
    const done = await waitFor((f) => f.includes('Node 20 came out in April 2023.') && /\(\d+(\.\d)?s\)/.test(f));
    expect(done).toContain('Searching the web.');
    expect(done).not.toContain('finished without output');
    expect(t.fake.answered).toHaveLength(2);
  });

  it('text around server tool blocks shows as two paragraphs, while it streams and after', async () => {
    const search = { type: 'server_tool_use', id: 'srvtoolu_02', name: 'web_search', input: { query: 'node 20' } };
    const result = { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_02', content: [] };
    await tui.start([
      {
        blocks: [
          { text: 'I will look it up.' },
          { server: search },
          { server: result },
          { text: 'It came out in April 2023.' },
        ],
        chunkDelayMs: 40,
      },
    ]);
    const { waitFor, type } = tui.render();
    await type('when?');
    await type('\r');
    const streaming = await waitFor((f) => f.includes('It came'));
    expect(streaming).not.toContain('up.It');
    const done = await waitFor((f) => f.includes('April 2023.') && /\(\d+(\.\d)?s\)/.test(f));
    expect(done).not.toContain('up.It');
    expect(done).toMatch(/I will look it up\.[^\n]*\n[^\n]*\n[^\n]*It came out in April 2023\./);
  });

  it('a provider without token usage: the person is told that the counts are estimates, and the status bar marks them', async () => {
    const t = await tui.start(
      [
        { text: 'Hello there.', usageShape: 'none' },
        { text: 'Again.', usageShape: 'none' },
      ],
      { provider: 'local' },
    );
    const { waitFor, type } = tui.render();
    await type('hi');
    await type('\r');
    const warned = flat(await waitFor((f) => f.includes('Hello there.') && flat(f).includes('reports no token usage')));
    expect(warned).toContain('local/fake-model reports no token usage');
    // the status bar marks the session's counts as estimates
    const bar = await waitFor((f) => f.includes('Cost: ~$'));
    expect(bar).toMatch(/Context: ~\d/);
    const session = t.app.db.sessions.list()[0]!;
    expect(session.completionTokens).toBe(Math.ceil('Hello there.'.length / 4));
  });
});
