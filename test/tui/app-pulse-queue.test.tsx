/**
 * The whole TUI (ink-testing-library) against a real app and the fake provider:
 * the pulse line while a provider is silent and while it backs off; a prompt sent during a
 * reply shown as queued, then sent; ↑ on an empty editor taking it back; ctrl+x expanding and
 * collapsing a long tool result; ctrl+p opening it whole in the pager.
 */
import { describe, expect, it } from 'vitest';
import type { FakeTurn } from '../support/fake-provider.js';
import { tuiPerTest } from '../support/render-tui.js';
import type { TuiApp as TestApp } from '../support/tui-app.js';

const tui = tuiPerTest();
let t: TestApp | undefined;

async function mount(turns: FakeTurn[]) {
  t = await tui.start(turns);
  const { ui, store, waitFor, type } = tui.render({ sessionId: undefined });
  /** types a prompt, waits until it shows, presses enter */
  const submit = async (text: string) => {
    await type(text);
    await waitFor((f) => f.includes(`> ${text}`));
    await type('\r');
  };
  return { ui, store, waitFor, type, submit };
}

describe('the pulse', () => {
  it('shows Thinking…, the seconds since the prompt and esc to interrupt while the provider is silent; gone after', async () => {
    const { waitFor, submit } = await mount([{ text: 'Finally.', delayMs: 2500 }]);
    await submit('hello?');
    const silent = await waitFor((f) => /Thinking… · [1-9]s · esc to interrupt/.test(f));
    expect(silent).not.toContain('Finally.');
    const done = await waitFor((f) => f.includes('Finally.') && /\(\d+\.\ds\)/.test(f));
    expect(done).not.toContain('esc to interrupt');
  });

  it('counts down the retry the provider announced, with its reason', async () => {
    const { waitFor, submit } = await mount([
      {
        httpStatus: 529,
        headers: { 'retry-after': '3' },
        body: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
      },
      { text: 'Back.' },
    ]);
    await submit('try');
    const retrying = await waitFor((f) =>
      /Retrying in [1-3] s \(overloaded, HTTP 529\) · \d+s · esc to interrupt/.test(f),
    );
    expect(retrying).toContain('try');
    await waitFor((f) => f.includes('Back.'));
  });
});

describe('the send queue on screen', () => {
  it('a prompt sent during a reply shows as queued, then goes when the reply ends', async () => {
    const { waitFor, submit } = await mount([
      { text: ['Slow ', 'first ', 'answer.'], chunkDelayMs: 400 },
      { text: 'Second answer.' },
    ]);
    await submit('first');
    await waitFor((f) => f.includes('Slow'));
    await submit('second');
    const queued = await waitFor((f) => f.includes('queued  second'));
    expect(queued).toContain('sent when the reply ends');
    const done = await waitFor((f) => f.includes('Second answer.'));
    expect(done).not.toContain('queued  second');
    expect(done).toContain('┃ second');
  });

  it('↑ on an empty editor takes the queued prompt back into the editor; it is not sent', async () => {
    const { waitFor, submit, type, store } = await mount([
      { text: ['Busy ', 'for ', 'a ', 'while.'], chunkDelayMs: 300 },
    ]);
    await submit('work');
    await waitFor((f) => f.includes('Busy'));
    await submit('edit me');
    await waitFor((f) => f.includes('queued  edit me'));
    await type('\u001b[A');
    const back = await waitFor((f) => f.includes('> edit me'));
    expect(back).not.toContain('queued  edit me');
    await waitFor((f) => f.includes('while.') && !f.includes('esc to interrupt'));
    expect(store.getSnapshot().queue).toEqual([]);
    expect(t!.fake.answered).toHaveLength(1);
  });
});

describe('long tool results', () => {
  it('ctrl+x expands the cut result and collapses it again; ctrl+p shows it whole in the pager, esc comes back', async () => {
    const { waitFor, submit, type } = await mount([
      { toolCalls: [{ id: 'toolu_seq', name: 'bash', input: { command: 'seq 101 140' } }] },
      { text: 'Counted.' },
    ]);
    await submit('count');
    const cut = await waitFor((f) => f.includes('Counted.') && f.includes('… (30 more lines)'));
    // the output's last line, not the header's `seq 101 140`
    const lastLine = /^\s+140(\s|$)/m;
    expect(cut).not.toMatch(lastLine);
    await type('\u0018'); // ctrl+x
    const expanded = await waitFor((f) => lastLine.test(f));
    expect(expanded).not.toContain('more lines');
    await type('\u0018');
    await waitFor((f) => f.includes('… (30 more lines)') && !lastLine.test(f));

    await type('\u0010'); // ctrl+p
    const pager = await waitFor((f) => f.includes('Bash  seq 101 140'));
    expect(pager).toMatch(/lines 1–\d+ of 40/);
    expect(pager).toContain('101');
    await type('\u001b');
    await waitFor((f) => f.includes('Counted.') && f.includes('… (30 more lines)'));
  });
});
