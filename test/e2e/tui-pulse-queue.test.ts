/**
 * End to end in a real terminal (tmux, 120×40): one `opencode` TUI process
 * against the loopback fake provider. In order: while the provider is silent the pulse line above the
 * editor says `Thinking…`, counts the seconds and names esc; a prompt sent while a reply streams is
 * shown as queued and goes when the reply ends; ctrl+x expands a long bash result in place and
 * collapses it, ctrl+p shows it whole in the pager and esc comes back.
 *
 * Run alone: `npx vitest run test/e2e/tui-pulse-queue.test.ts` (needs tmux and a built dist/: the
 * suite's global setup builds it).
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { answerTitles, startTui, tuiProject, type Terminal } from '../support/tmux.js';

let fake: FakeProvider;
let tui: Terminal;
let dir: string;

beforeAll(async () => {
  fake = await startFakeProvider([], { sideTurn: answerTitles() });
  dir = tuiProject({ 'README.md': '# demo\n' });
  tui = await startTui({ cwd: dir, anthropicBaseURL: fake.anthropicBaseURL });
});

afterAll(async () => {
  await tui?.kill();
  await fake?.close();
  if (dir) rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
});

/** The text of the last user message of a request the fake answered. */
const lastPrompt = (request: { messages: { content: { type: string; text?: string }[] }[] }) =>
  request.messages
    .at(-1)!
    .content.flatMap((c) => (c.type === 'text' ? [c.text] : []))
    .join('');

describe('opencode TUI in tmux: the pulse, the send queue, long results', () => {
  it('while the provider is silent the pulse says Thinking…, counts the seconds and names esc; it goes with the answer', async () => {
    fake.push({ text: 'Hello after the silence.', delayMs: 4_000 });
    await tui.submit('are you there?');
    // the count moving proves the line is redrawn while nothing else changes
    const silent = await tui.waitFor(/Thinking… · [2-9]s · esc to interrupt/);
    expect(silent).not.toContain('Hello after the silence.');
    expect(silent).toMatch(/^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Thinking…/m);
    const done = await tui.waitFor(/Hello after the silence\.[\s\S]*\(\d+\.\ds\)/);
    expect(done).not.toContain('esc to interrupt');
  });

  it('a prompt sent while a reply streams shows as queued and goes when the reply ends', async () => {
    fake.push(
      { text: ['Streaming ', 'a slow ', 'first ', 'answer.'], chunkDelayMs: 600 },
      { text: 'Answer to the queued one.' },
    );
    await tui.submit('first question');
    await tui.waitFor('Streaming');
    await tui.submit('queued question');
    const queued = await tui.waitFor('queued  queued question');
    expect(queued).toContain('sent when the reply ends');
    const done = await tui.waitFor('Answer to the queued one.', 15_000);
    expect(done).not.toContain('queued  queued question');
    expect(lastPrompt(fake.answered.at(-1))).toBe('queued question');
    // it went after the first reply had ended: that request holds the whole first answer
    expect(JSON.stringify(fake.answered.at(-1).messages)).toContain('Streaming a slow first answer.');
  });

  it('ctrl+x expands a long bash result and collapses it; ctrl+p shows it whole in the pager; esc comes back', async () => {
    fake.push(
      { toolCalls: [{ id: 'toolu_seq', name: 'bash', input: { command: 'seq 201 240' } }] },
      { text: 'Counted them.' },
    );
    await tui.submit('count please');
    await tui.waitFor(/… \(30 more lines\)[\s\S]*Counted them\./, 15_000);
    const lastLine = /^\s+240(\s|$)/m;

    await tui.press('C-x');
    const expanded = await tui.waitFor(lastLine);
    expect(expanded).not.toContain('… (30 more lines)');
    await tui.press('C-x');
    const collapsed = await tui.waitFor('… (30 more lines)');
    expect(collapsed).not.toMatch(lastLine);

    await tui.press('C-p');
    // the page is 39 rows (Ink keeps one free): the title, then 38 of the 40 lines
    const pager = await tui.waitFor('Bash  seq 201 240 · lines 1–38 of 40');
    expect(pager.split('\n')[1]).toBe('201');
    expect(pager).not.toContain('Counted them.');
    await tui.press('Escape');
    await tui.waitFor(/… \(30 more lines\)[\s\S]*Counted them\./);
  });
});
