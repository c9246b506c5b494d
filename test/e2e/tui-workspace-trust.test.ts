/**
 * Workspace trust in the TUI, end to end in a real terminal (tmux, 120×40): in a project whose
 * plugin, declarative tool, MCP server and language server each write a marker file when they run,
 * the trust dialog lists them at start and none runs before the answer. "Trust this project" starts
 * them in the same session and remembers the project; "Not now" (esc) runs the session without them
 * and says so on the status line.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { HOSTILE_TURNS, hostileProject } from '../support/hostile-project.js';
import { answerTitles, OPENCODE, startTerminal, tuiEnv, type Terminal } from '../support/tmux.js';

let fake: FakeProvider | undefined;
let tui: Terminal | undefined;
afterEach(async () => {
  await tui?.kill();
  tui = undefined;
  await fake?.close();
  fake = undefined;
});

/** Polls `read` until it returns `want` (the markers appear as the servers start). */
async function until<T>(read: () => T, want: T, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const got = read();
    if (JSON.stringify(got) === JSON.stringify(want) || Date.now() > end) return got;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('opencode TUI in tmux: workspace trust', () => {
  it('lists what the project would run and runs none of it before the answer; "Trust this project" starts it all without a restart', async () => {
    const p = hostileProject();
    fake = await startFakeProvider(HOSTILE_TURNS, { sideTurn: answerTitles() });
    tui = await startTerminal({ command: OPENCODE, cwd: p.dir, env: tuiEnv(fake.anthropicBaseURL, { HOME: p.home }) });
    const dialog = await tui.waitFor('Trust this project?', 20_000);
    const mark = join(p.dir, 'mark.cjs');
    // the dialog's rows inside its frame, a wrapped item's rows joined (the command lines wrap at the
    // space before the script's path): each command is shown whole
    const rows = dialog
      .split('\n')
      .filter((row) => row.includes('│'))
      .map((row) => row.replace(/^[^│]*│ /, '').replace(/ *│$/, ''));
    const items = rows
      .join('\n')
      .replace(/\n {2}/g, ' ')
      .split('\n')
      .filter((row) => row.startsWith('• '));
    expect(items).toEqual([
      `• MCP server evil: ${process.execPath} ${mark} mcp`,
      `• language server evil: ${process.execPath} ${mark} lsp`,
      '• plugin .opencode/plugins/evil.js',
      '• tool file .opencode/tools/evil.json',
    ]);
    expect(dialog).toContain(' Trust this project  ›Not now‹');
    expect(p.marks()).toEqual([]);

    await tui.press('Tab');
    await tui.waitFor('›Trust this project‹');
    await tui.press('Enter');
    await tui.waitFor("Trusted: this project's own code (4 items) is starting");
    // the language server may start now or at the first file of its language: the prompt below checks it
    const started = await until(() => p.marks().filter((m) => m !== 'lsp'), ['mcp', 'plugin', 'user-mcp']);
    expect(started).toEqual(['mcp', 'plugin', 'user-mcp']);
    expect(JSON.parse(readFileSync(join(p.home, '.config', 'opencode', 'trusted-projects.json'), 'utf8'))).toEqual({
      projects: [p.dir],
    });

    await tui.submit('go');
    // the write asks, as it does in any project
    await tui.waitFor('Permission Required', 20_000);
    await tui.press('a');
    await tui.waitFor('Done.', 20_000);
    expect(await until(p.marks, ['lsp', 'mcp', 'plugin', 'tool', 'user-mcp'])).toEqual([
      'lsp',
      'mcp',
      'plugin',
      'tool',
      'user-mcp',
    ]);
  });

  it('"Not now" runs the session without the project\'s code and says so; the user\'s own server starts', async () => {
    const p = hostileProject();
    fake = await startFakeProvider(HOSTILE_TURNS, { sideTurn: answerTitles() });
    tui = await startTerminal({ command: OPENCODE, cwd: p.dir, env: tuiEnv(fake.anthropicBaseURL, { HOME: p.home }) });
    await tui.waitFor('Trust this project?', 20_000);
    await tui.press('Escape');
    await tui.waitFor("Not trusted: this project's own code (4 items) is off for this session");
    expect(await until(p.marks, ['user-mcp'])).toEqual(['user-mcp']);

    await tui.submit('go');
    await tui.waitFor('Permission Required', 20_000);
    await tui.press('a');
    await tui.waitFor('Done.', 20_000);
    expect(p.marks()).toEqual(['user-mcp']);
    expect((fake.answered[0].tools as { name: string }[]).map((t) => t.name)).not.toContain('evil_tool');
    expect(existsSync(join(p.home, '.config', 'opencode', 'trusted-projects.json'))).toBe(false);
  });
});
