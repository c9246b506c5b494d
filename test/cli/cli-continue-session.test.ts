/**
 * Issue 14: `opencode -p … --continue` and `--session ID` continue an earlier session: the provider
 * gets its earlier turns (the fake checks the history it receives is valid and we check it is the
 * session's), the new turns are stored in it, and an unknown id is a usage error (exit 2) before any
 * request. Real bin/opencode, real SQLite file, the loopback fake provider.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { catalogModel, DEFAULT_MODELS } from '../../src/provider/catalog.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { cleanEnv, runCli } from '../support/cli.js';

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const project = () => mkdtempSync(join(tmpdir(), 'opencode-continue-'));
const envFor = (f: FakeProvider) =>
  cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: f.anthropicBaseURL });

/** The text of each message the provider got, role first, cache markers left out. */
function transcript(body: {
  messages: { role: string; content: { type: string; text?: string; id?: string; tool_use_id?: string }[] }[];
}): string[] {
  return body.messages.map(
    (m) =>
      `${m.role}: ${m.content.map((b) => (b.type === 'text' ? b.text : b.type === 'tool_use' ? `[tool_use ${b.id}]` : `[${b.type} ${b.tool_use_id ?? ''}]`)).join(' ')}`,
  );
}

function sessionRows(dir: string): { id: string; title: string; message_count: number }[] {
  const db = new Database(join(dir, '.opencode', 'opencode.db'), { readonly: true });
  try {
    return db.prepare('SELECT id, title, message_count FROM sessions ORDER BY created_at').all() as {
      id: string;
      title: string;
      message_count: number;
    }[];
  } finally {
    db.close();
  }
}

describe('opencode -p --continue', () => {
  it("sends the earlier turns of the project's latest session and stores the new ones in it", async () => {
    fake = await startFakeProvider([
      { text: 'Looking.', toolCalls: [{ id: 'toolu_ls', name: 'ls', input: {} }] },
      { text: 'The project is empty.' },
      { text: 'Still empty.' },
    ]);
    const dir = project();
    const first = await runCli(['-p', 'what is here?'], { cwd: dir, env: envFor(fake) });
    expect(first).toMatchObject({ code: 0, stdout: 'The project is empty.\n' });

    const second = await runCli(['-p', 'and now?', '--continue'], { cwd: dir, env: envFor(fake) });
    expect(second).toMatchObject({ code: 0, stdout: 'Still empty.\n', stderr: '' });
    expect(fake.requests.filter((r) => r.rejected)).toEqual([]);
    expect(transcript(fake.answered[2])).toEqual([
      'user: what is here?',
      'assistant: Looking. [tool_use toolu_ls]',
      'user: [tool_result toolu_ls]',
      'assistant: The project is empty.',
      'user: and now?',
    ]);
    // one session: user, assistant, tool, assistant, then user, assistant
    expect(sessionRows(dir)).toEqual([
      { id: expect.any(String), title: 'Non-interactive: what is here?', message_count: 6 },
    ]);
  }, 60_000);

  it('auto-compacts the continued session first when its context reached 95 % of the window, as the TUI does', async () => {
    const window = catalogModel(DEFAULT_MODELS.anthropic.coder)!.contextWindowTokens;
    fake = await startFakeProvider([
      { text: 'A long answer.', usage: { input: Math.ceil(window * 0.95), output: 10 } },
      { text: 'Summary: the person asked for a long answer and got one.' },
      { text: 'Short now.' },
    ]);
    const dir = project();
    await runCli(['-p', 'answer at length'], { cwd: dir, env: envFor(fake) });
    const run = await runCli(['-p', 'and briefly?', '--continue', '-f', 'stream-json'], {
      cwd: dir,
      env: envFor(fake),
    });
    expect(run.code).toBe(0);
    const lines = run.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; state?: string; text?: string });
    expect(lines.filter((l) => l.type === 'compaction').map((l) => l.state)).toEqual(['started', 'done']);
    expect(lines.at(-1)).toMatchObject({ type: 'result', reason: 'end_turn', text: 'Short now.' });
    // the request after the summary sends the summary and the new prompt only
    expect(transcript(fake.answered[2])).toEqual([
      'user: Summary: the person asked for a long answer and got one. and briefly?',
    ]);
  }, 60_000);

  it('starts a new session, and says so, when the project has none to continue', async () => {
    fake = await startFakeProvider([{ text: 'Hello.' }]);
    const dir = project();
    const run = await runCli(['-p', 'hi', '--continue'], { cwd: dir, env: envFor(fake) });
    expect(run).toMatchObject({
      code: 0,
      stdout: 'Hello.\n',
      stderr: 'opencode: no earlier session in this project to continue; starting a new one\n',
    });
    expect(transcript(fake.answered[0])).toEqual(['user: hi']);
  }, 60_000);
});

describe('opencode -p --session ID', () => {
  it('continues the named session (by a unique prefix of its id), not the latest one', async () => {
    fake = await startFakeProvider([{ text: 'Red.' }, { text: 'Blue.' }, { text: 'You said red.' }]);
    const dir = project();
    await runCli(['-p', 'pick red'], { cwd: dir, env: envFor(fake) });
    await runCli(['-p', 'pick blue'], { cwd: dir, env: envFor(fake) });
    const [red, blue] = sessionRows(dir);
    // a prefix that names only the first session (ids are random: take as much as tells them apart)
    let n = 1;
    while (blue!.id.startsWith(red!.id.slice(0, n))) n++;
    const run = await runCli(['-p', 'which did I pick?', '--session', red!.id.slice(0, n)], {
      cwd: dir,
      env: envFor(fake),
    });
    expect(run).toMatchObject({ code: 0, stdout: 'You said red.\n', stderr: '' });
    expect(transcript(fake.answered[2])).toEqual(['user: pick red', 'assistant: Red.', 'user: which did I pick?']);
    expect(sessionRows(dir).map((s) => s.message_count)).toEqual([4, 2]);
  }, 60_000);

  it('refuses an unknown id with exit 2 and a pointer to the list, before any request', async () => {
    fake = await startFakeProvider([{ text: 'never sent' }]);
    const dir = project();
    const run = await runCli(['-p', 'hi', '--session', 'nope'], { cwd: dir, env: envFor(fake) });
    expect(run).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'opencode: no session nope; `opencode sessions list` shows them\n',
    });
    expect(fake.requests).toEqual([]);
  }, 60_000);

  it('refuses --continue with --session (exit 2)', async () => {
    const run = await runCli(['-p', 'hi', '--continue', '--session', 'abc'], {
      cwd: project(),
      env: cleanEnv({ ANTHROPIC_API_KEY: 'k' }),
    });
    expect(run).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'opencode: --continue and --session both name a session; give one of them\n',
    });
  }, 60_000);
});
