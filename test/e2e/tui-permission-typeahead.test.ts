/**
 * End to end in a real terminal (tmux, 120×40): the permission dialog appears while the person
 * types their next prompt, one key at a time as a person types. The model (the loopback fake, after
 * a delay) asks to run `rm victim`; the typing goes on into the dialog — `a`, `s`, `p` and spaces
 * among it — and none of it allows the call: the dialog says the typing went on, victim stays, and
 * the model hears nothing. After a pause, a deliberate `a` allows it (victim goes).
 *
 * Run alone: `npx vitest run test/e2e/tui-permission-typeahead.test.ts` (needs tmux and a built dist/).
 */
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TYPEAHEAD_GAP_MS } from '../../src/tui/dialogs/PermissionDialog.js';
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

/** What the person types next: no `d` (d denies at once, by design), many `a`, `s`, `p` and spaces. */
const NEXT_PROMPT = 'please also run the tests after that, then say which pass ';
/** Between two typed keys, ms: a brisk typist, well inside one typing run. */
const KEY_STEP_MS = 40;
/** Keys typed after the dialog showed on the screen (the screen is polled, so more reached it). */
const KEYS_INTO_DIALOG = 20;

describe('opencode TUI in tmux: the permission dialog and typeahead', () => {
  it('typing that goes on as the dialog appears does not allow the call; a deliberate a after a pause does', async () => {
    fake.push(
      {
        delayMs: 1_500,
        toolCalls: [
          { id: 'toolu_typeahead', name: 'bash', input: { command: 'rm victim', description: 'Delete victim' } },
        ],
      },
      { text: 'Deleted victim.' },
    );
    expect(NEXT_PROMPT).not.toMatch(/d/);
    await tui.submit('clean up');
    // the prompt is sent (keys right after Enter would join it as a paste burst: paste-burst.ts)
    await tui.waitFor('┃ clean up');

    // type on, key by key, while watching for the dialog; stop a few keys after it showed
    let shown = false;
    const watching = tui.waitFor('Permission Required', 60_000).then(() => (shown = true));
    let typed = 0;
    let afterShown = 0;
    // one control-mode client for the whole run: a tmux process per key could, on a loaded machine,
    // leave a gap longer than TYPEAHEAD_GAP_MS, and a key after it would then be a deliberate answer
    const keyboard = await tui.keyboard();
    try {
      for (let i = 0; afterShown < KEYS_INTO_DIALOG; i++) {
        if (typed > 400) throw new Error(`the dialog never appeared while typing; the screen:\n${await tui.screen()}`);
        keyboard.type(NEXT_PROMPT[i % NEXT_PROMPT.length]!);
        typed++;
        if (shown) afterShown++;
        await sleep(KEY_STEP_MS);
      }
    } finally {
      await keyboard.close();
    }
    await watching;

    // the typing reached the dialog and was not taken as an answer
    // (the note names the last granting key the typing pressed: a, s, p or enter for space)
    const screen = await tui.waitFor(
      /Typing went on as this appeared: press (a|s|p|enter) again to (allow|allow for session|always allow in project) +│/,
    );
    expect(screen).toContain('Permission Required');
    expect(screen).toContain('rm victim');
    expect(existsSync(join(dir, 'victim'))).toBe(true);
    expect(fake.answered).toHaveLength(1);

    // the person stops, reads, and answers
    await sleep(TYPEAHEAD_GAP_MS * 2);
    expect(existsSync(join(dir, 'victim'))).toBe(true);
    await tui.press('a');
    await tui.waitFor('Deleted victim.');
    expect(existsSync(join(dir, 'victim'))).toBe(false);
    expect(fake.answered).toHaveLength(2);
    const results = (
      fake.answered[1].messages.at(-1).content as { type: string; tool_use_id?: string; is_error?: boolean }[]
    ).filter((b) => b.type === 'tool_result');
    expect(results).toEqual([expect.objectContaining({ type: 'tool_result', tool_use_id: 'toolu_typeahead' })]);
    expect(results[0]).not.toHaveProperty('is_error', true);
  });
});
