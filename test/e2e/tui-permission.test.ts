/**
 * End to end in a real terminal (tmux, 120×40): the permission dialog and the sessions list of one
 * `opencode` TUI process against the loopback fake provider. The model asks to run `rm victim`:
 * `d` denies it (victim stays; the model's next request carries the "Permission denied" result);
 * in a new session (ctrl+n) the same call is allowed with `a` (victim goes); ctrl+s then lists both
 * sessions, each named after its first prompt (the fake answers the title requests).
 *
 * Run alone: `npx vitest run test/e2e/tui-permission.test.ts` (needs tmux and a built dist/: the
 * suite's global setup builds it).
 */
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { answerTitles, startTui, tuiProject, type Terminal } from '../support/tmux.js';

let fake: FakeProvider;
let tui: Terminal;
let dir: string;

beforeAll(async () => {
  fake = await startFakeProvider([], { sideTurn: answerTitles() });
  dir = tuiProject({ victim: 'precious\n' });
  tui = await startTui({ cwd: dir, anthropicBaseURL: fake.anthropicBaseURL });
});

afterAll(async () => {
  await tui?.kill();
  await fake?.close();
  if (dir) rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
});

/** The tool_result blocks of the last message of a request body. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a request body as the fake provider got it
const lastResults = (body: any) =>
  (body.messages.at(-1).content as { type: string }[]).filter((b) => b.type === 'tool_result');

describe('opencode TUI in tmux: permissions and sessions', () => {
  it('d denies `rm victim`: victim stays, and the next request tells the model "Permission denied"', async () => {
    fake.push(
      {
        toolCalls: [
          { id: 'toolu_denied', name: 'bash', input: { command: 'rm victim', description: 'Delete victim' } },
        ],
      },
      { text: 'Understood, I left victim alone.' },
    );

    await tui.submit('delete the victim file');
    const dialog = await tui.waitFor('Permission Required');
    expect(dialog).toContain('rm victim');
    await tui.press('d');
    await tui.waitFor(/(^|\s)permission denied(\s|$)/m);
    expect(existsSync(join(dir, 'victim'))).toBe(true);
    expect(fake.answered).toHaveLength(1);

    await tui.submit('ok, why not?');
    await tui.waitFor('Understood, I left victim alone.');
    expect(fake.answered).toHaveLength(2);
    // the denied call's result opens the user turn that carries the new prompt
    expect(fake.answered[1].messages.at(-1)).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_denied', is_error: true, content: 'Permission denied' },
        { type: 'text', text: 'ok, why not?', cache_control: { type: 'ephemeral' } },
      ],
    });
    expect(existsSync(join(dir, 'victim'))).toBe(true);
  });

  it('in a new session (ctrl+n), a allows the same `rm victim`: victim is removed', async () => {
    fake.push(
      {
        toolCalls: [
          { id: 'toolu_allowed', name: 'bash', input: { command: 'rm victim', description: 'Delete victim' } },
        ],
      },
      { text: 'Deleted victim.' },
    );

    await tui.press('C-n');
    await tui.waitForGone('Understood, I left victim alone.');
    await tui.submit('now really delete victim');
    const dialog = await tui.waitFor('Permission Required');
    expect(dialog).toContain('rm victim');
    await tui.press('a');
    await tui.waitFor('Deleted victim.');

    expect(existsSync(join(dir, 'victim'))).toBe(false);
    expect(fake.answered).toHaveLength(4);
    // the new session's first request holds only its own prompt
    expect(fake.answered[2].messages).toHaveLength(1);
    expect(lastResults(fake.answered[3])).toEqual([
      expect.objectContaining({ type: 'tool_result', tool_use_id: 'toolu_allowed' }),
    ]);
    expect(lastResults(fake.answered[3])[0]).not.toHaveProperty('is_error', true);
  });

  it('ctrl+s lists both sessions, by the titles made from their first prompts', async () => {
    await tui.press('C-s');
    const screen = await tui.waitFor('Switch Session');
    // the dialog's rows: from its title down, left of the sidebar (which names the current session too)
    const rows = screen.split('\n');
    const dialog = rows.slice(rows.findIndex((l) => l.includes('Switch Session'))).map((l) => l.slice(0, 80));
    const listed = (title: string) => dialog.findIndex((l) => l.includes(title));
    expect(listed('now really delete victim'), screen).toBeGreaterThan(0);
    expect(listed('delete the victim file'), screen).toBeGreaterThan(0);
    // newest first
    expect(listed('now really delete victim')).toBeLessThan(listed('delete the victim file'));
    await tui.press('Escape');
    await tui.waitForGone('Switch Session');
  });
});
