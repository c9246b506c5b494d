/**
 * End to end in a real terminal (tmux): "Run outside the sandbox". The model runs a project script
 * that writes outside the project (the analysis cannot see where); `a` approves it, and the sandbox
 * refuses the write (the model is told it was the sandbox). The model sends the command again: now
 * the dialog also offers "Run outside sandbox (o)" and says the call runs with full access; `o` runs
 * it outside and the file is there. A command the analysis sees writing outside (`touch` of a path
 * there) is offered the choice in its first dialog.
 *
 * Run alone: `npx vitest run test/e2e/tui-sandbox-escape.test.ts` (needs tmux, bubblewrap and a built
 * dist/: the suite's global setup builds it).
 */
import { chmodSync, existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectSandbox } from '../../src/sandbox/detect.js';
import { TYPEAHEAD_GAP_MS } from '../../src/tui/dialogs/PermissionDialog.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { answerTitles, startTui, tuiProject, type Terminal } from '../support/tmux.js';

const CAN_RUN = (await detectSandbox()).backend === 'bubblewrap';

let fake: FakeProvider;
let tui: Terminal;
let dir: string;
let outside: string;

beforeAll(async () => {
  if (!CAN_RUN) return;
  fake = await startFakeProvider([], { sideTurn: answerTitles() });
  dir = tuiProject();
  outside = realpathSync(mkdtempSync(join(tmpdir(), 'opencode-e2e-outside-')));
  tui = await startTui({ cwd: dir, anthropicBaseURL: fake.anthropicBaseURL });
});

afterAll(async () => {
  await tui?.kill();
  await fake?.close();
  for (const d of [dir, outside]) if (d) rmSync(d, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
});

/** The text of the tool_result blocks of the last message of a request body. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a request body as the fake provider got it
const lastResults = (body: any): string[] =>
  (body.messages.at(-1).content as { type: string; content: unknown }[])
    .filter((b) => b.type === 'tool_result')
    .map((b) => (typeof b.content === 'string' ? b.content : JSON.stringify(b.content)));

describe.skipIf(!CAN_RUN)('opencode TUI in tmux: run outside the sandbox', () => {
  it('a runs the approved command in the sandbox, which refuses; on the retry o runs it outside', async () => {
    writeFileSync(join(dir, 'mk.sh'), `#!/bin/sh\ntouch ${outside}/f\n`);
    chmodSync(join(dir, 'mk.sh'), 0o755);
    const command = './mk.sh';
    fake.push(
      { toolCalls: [{ id: 'toolu_first', name: 'bash', input: { command, description: 'Create f' } }] },
      { toolCalls: [{ id: 'toolu_again', name: 'bash', input: { command, description: 'Create f' } }] },
      { text: 'Created it outside the sandbox.' },
    );

    await tui.submit('create f in the outside folder');
    const first = await tui.waitFor('Permission Required');
    expect(first).not.toContain('Run outside sandbox');
    await tui.press('a');

    const second = await tui.waitFor('Run outside sandbox (o): this call runs with your full access: no sandbox');
    expect(second).toContain('Run outside sandbox (o)');
    expect(existsSync(join(outside, 'f'))).toBe(false);
    expect(lastResults(fake.answered[1])[0]).toContain(
      "not the program's fault. Run it in another way, or ask the person to run it outside the sandbox.",
    );
    // the second dialog comes right after the `a`: a key within the typeahead gap would continue that
    // run and be held (the guard against answering a dialog that popped up mid-typing), so pause first
    await new Promise((resolve) => setTimeout(resolve, TYPEAHEAD_GAP_MS + 200));
    await tui.press('o');

    await tui.waitFor('Created it outside the sandbox.');
    expect(existsSync(join(outside, 'f'))).toBe(true);
  });

  it('a command seen writing outside the project is offered o in its first dialog', async () => {
    const command = `touch ${outside}/g`;
    fake.push(
      { toolCalls: [{ id: 'toolu_seen', name: 'bash', input: { command, description: 'Create g' } }] },
      { text: 'Created g.' },
    );
    await tui.submit('create g in the outside folder');
    await tui.waitFor('Run outside sandbox (o): this call runs with your full access: no sandbox');
    await new Promise((resolve) => setTimeout(resolve, TYPEAHEAD_GAP_MS + 200));
    await tui.press('o');
    await tui.waitFor('Created g.');
    expect(existsSync(join(outside, 'g'))).toBe(true);
  });
});
