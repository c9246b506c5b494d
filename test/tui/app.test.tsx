/**
 * The whole TUI (ink-testing-library) against a real app and the fake provider: a prompt typed
 * and sent, the answer growing as it streams, the footer; a permission dialog answered with `d`;
 * ctrl+n and ctrl+s; esc cancelling a slow reply.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tuiPerTest } from '../support/render-tui.js';
import type { TuiApp as TestApp } from '../support/tui-app.js';
import type { FakeTurn } from '../support/fake-provider.js';

const tui = tuiPerTest();
let t: TestApp | undefined;

async function mount(turns: FakeTurn[]) {
  t = await tui.start(turns);
  return tui.render();
}

describe('the TUI', () => {
  it('sends a typed prompt; the answer streams in and the footer names the model', async () => {
    const { ui, waitFor, type } = await mount([{ text: ['The answer ', 'is 42.'], chunkDelayMs: 150 }]);
    await type('what is the answer?');
    expect(ui.lastFrame()).toContain('> what is the answer?');
    await type('\r');
    const partial = await waitFor((f) => f.includes('The answer') && !f.includes('is 42.'));
    expect(partial).toContain('┃ what is the answer?');
    // the footer names the model as the status bar does
    const done = await waitFor((f) => /Claude Sonnet 5\.5 \(\d+(\.\d)?s\)/.test(f));
    expect(done).toContain('The answer is 42.');
    // the editor is empty again
    expect(done).toMatch(/^> *$/m);
  });

  it('shows the permission dialog for rm; d denies, the file stays, the footer says so', async () => {
    const { waitFor, type } = await mount([
      { toolCalls: [{ id: 'toolu_rm', name: 'bash', input: { command: 'rm victim' } }] },
    ]);
    writeFileSync(join(t!.dir, 'victim'), 'x');
    await type('remove victim');
    await type('\r');
    const dialog = await waitFor((f) => f.includes('Permission Required'));
    expect(dialog).toContain('rm victim');
    expect(dialog).toContain('Allow (a)');
    expect(dialog).toContain('Deny (d)');
    await type('d');
    const after = await waitFor((f) => f.includes('permission denied'));
    expect(after).not.toContain('Permission Required');
    expect(existsSync(join(t!.dir, 'victim'))).toBe(true);
  });

  it('esc cancels a slow reply; the next prompt is answered', async () => {
    const { waitFor, type } = await mount([
      { text: ['Starting a long answer', ' and more', ' and more'], chunkDelayMs: 2000 },
      { text: 'Second answer.' },
    ]);
    await type('go slowly');
    await type('\r');
    await waitFor((f) => f.includes('Starting a long answer'));
    await type('\u001b');
    await waitFor((f) => f.includes('canceled'));
    await type('again');
    await type('\r');
    await waitFor((f) => f.includes('Second answer.'));
  });

  it('ctrl+n starts a new session and ctrl+s lists both, newest first; ctrl+c then y quits', async () => {
    const { ui, waitFor, type, quitted } = await mount([{ text: 'First.' }, { text: 'Second.' }]);
    await type('one');
    await type('\r');
    await waitFor((f) => f.includes('First.') && /\(\d/.test(f));
    await type('\u000e'); // ctrl+n
    await waitFor((f) => !f.includes('First.'));
    await type('two');
    await type('\r');
    await waitFor((f) => f.includes('Second.') && /\(\d/.test(f));
    await type('\u0013'); // ctrl+s
    const list = await waitFor((f) => f.includes('New Session') && f.split('New Session').length >= 3);
    expect(list).toContain('2 msgs');
    await type('\u001b');
    await type('\u0003'); // ctrl+c
    await waitFor((f) => f.includes('Quit'));
    await type('y');
    expect(quitted()).toBe(true);
    void ui;
  });

  it("ctrl+o picks another model: later replies use it; enter saves it to the project's config, not the global one", async () => {
    const { waitFor, type } = await mount([{ text: 'From the new model.' }]);
    const globalConfig = join(t!.dir, '.home', '.opencode.json');
    writeFileSync(globalConfig, JSON.stringify({ tui: { theme: 'dracula' } }, null, 2));
    await type('\u000f'); // ctrl+o
    const dialog = await waitFor((f) => f.includes('Claude Opus 5.5'));
    expect(dialog).toContain('Claude Sonnet 5.5');
    // the current model (Sonnet 5.5, second in the catalog) is selected: up once is Opus 5.5
    await type('\u001b[A');
    await type('\r');
    await waitFor((f) => f.includes('Claude Opus 5.5') && !f.includes('Claude Sonnet 5.5'));
    expect(JSON.parse(readFileSync(join(t!.dir, '.opencode.json'), 'utf8'))).toEqual({
      agents: { coder: { model: 'anthropic/claude-opus-5-5' } },
    });
    expect(JSON.parse(readFileSync(globalConfig, 'utf8'))).toEqual({ tui: { theme: 'dracula' } });
    await type('hello');
    await type('\r');
    await waitFor((f) => f.includes('From the new model.') && f.includes('Claude Opus 5.5 ('));
    expect(t!.fake.answered.at(-1).model).toBe('claude-opus-5-5');
  });

  it('ctrl+k lists user and project custom commands, filtered by typing; one with a $NAME asks for it, then sends the text', async () => {
    const { waitFor, type } = await mount([{ text: 'Greeted.' }]);
    const userDir = join(t!.dir, '.home', '.config', 'opencode', 'commands', 'git');
    mkdirSync(userDir, { recursive: true });
    writeFileSync(join(userDir, 'commit.md'), 'Commit with the message $MESSAGE');
    mkdirSync(join(t!.dir, '.opencode', 'commands'), { recursive: true });
    writeFileSync(join(t!.dir, '.opencode', 'commands', 'greet.md'), 'Say hello.');
    await type('\u000b'); // ctrl+k
    // the same list as `/`: the built-ins (10 rows show), the custom ones further down
    const list = await waitFor((f) => f.includes('Initialize Project') && f.includes('↓ more'));
    expect(list).toContain('Compact Session');
    // typing filters it: one read, handed over a letter at a time
    await type('project:');
    await waitFor((f) => f.includes('project:greet') && !f.includes('Compact Session'));
    await type('\u007f'.repeat(8));
    await waitFor((f) => f.includes('> type to filter'));
    await type('git:commit');
    await waitFor((f) => f.includes('> git:commit') && f.includes('user:git:commit') && !f.includes('Compact Session'));
    await type('\r');
    await waitFor((f) => f.includes('MESSAGE'));
    await type('fix the build');
    await type('\r');
    await waitFor((f) => f.includes('Greeted.'));
    const sent = t!.fake.answered.at(-1).messages.at(-1).content;
    expect(JSON.stringify(sent)).toContain('Commit with the message fix the build');
  });

  it('ctrl+l shows the logs page; esc comes back with the draft still in the editor', async () => {
    const { waitFor, type } = await mount([]);
    await type('half-written request');
    await type('\u000c'); // ctrl+l
    await waitFor((f) => !f.includes('half-written request'));
    await type('\u001b');
    await waitFor((f) => f.includes('> half-written request'));
  });

  it('ctrl+f attaches an image once; the same image again is refused with a message', async () => {
    const { waitFor, type } = await mount([]);
    // a PNG signature and header chunk is enough for the type sniffing
    writeFileSync(
      join(t!.dir, 'pic.png'),
      Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex'),
    );
    for (let round = 0; round < 2; round++) {
      await type('\u0006'); // ctrl+f
      await waitFor((f) => f.includes('pic.png'));
      await type('i');
      await type('pic.png');
      // typed into a dialog, the letters arrive one per event-loop turn: wait until all are there
      await waitFor((f) => f.includes('path: pic.png'));
      await type('\r');
    }
    const frame = await waitFor((f) => f.includes('pic.png is attached already'));
    expect(frame).toContain('[1] pic.png');
    expect(frame).not.toContain('[2] pic.png');
  });
});
