/**
 * Issue 14: a session whose `opencode -p` was killed (SIGKILL) while a tool ran can be continued with
 * `--continue`: the repair on load answers the cut-off call, so the provider gets a valid history
 * (every tool_use with its tool_result; the fake provider rejects anything else with HTTP 400, as the
 * real API does). Real bin/opencode, a real shell, real SQLite, the loopback fake provider.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { INTERRUPTED_RESULT } from '../../src/agent/history.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { cleanEnv, runCli } from '../support/cli.js';

const fakes: FakeProvider[] = [];
afterEach(async () => {
  for (const fake of fakes.splice(0)) await fake.close();
});

/** Polls every 50 ms until `condition` holds or `limitMs` passes; returns whether it held (nothing timed is asserted). */
async function eventually(condition: () => boolean, limitMs = 20_000): Promise<boolean> {
  for (const end = Date.now() + limitMs; Date.now() < end; await new Promise((r) => setTimeout(r, 50))) {
    if (condition()) return true;
  }
  return condition();
}

describe.skipIf(process.platform === 'win32')('opencode -p --continue after kill -9 during a tool call', () => {
  it('sends the cut-off call with an interrupted result, which the provider accepts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-continue-kill-'));
    writeFileSync(join(dir, '.opencode.json'), JSON.stringify({ permission: { bash: { '*': 'allow' } } }));
    const first = await startFakeProvider([
      {
        text: 'Running it.',
        toolCalls: [
          { id: 'toolu_sleep', name: 'bash', input: { command: 'touch started; sleep 300', timeout: 600_000 } },
        ],
      },
      { text: 'never sent' },
    ]);
    fakes.push(first);
    const env = cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: first.anthropicBaseURL });
    let pid = 0;
    const killed = runCli(['-p', 'run the slow thing'], { cwd: dir, env, onSpawn: (p) => (pid = p) });
    expect(await eventually(() => existsSync(join(dir, 'started')))).toBe(true);
    process.kill(pid, 'SIGKILL');
    expect((await killed).signal).toBe('SIGKILL');

    const second = await startFakeProvider([{ text: 'It was interrupted; running it again would take five minutes.' }]);
    fakes.push(second);
    const run = await runCli(['-p', 'what happened?', '--continue'], {
      cwd: dir,
      env: { ...env, ANTHROPIC_BASE_URL: second.anthropicBaseURL },
    });
    expect(run).toMatchObject({ code: 0, stdout: 'It was interrupted; running it again would take five minutes.\n' });
    expect(second.requests.filter((r) => r.rejected)).toEqual([]);
    const messages = second.answered[0].messages as { role: string; content: Record<string, unknown>[] }[];
    // the result and the new prompt go as one user turn (the API wants turns to alternate)
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(messages[1]!.content).toEqual([
      { type: 'text', text: 'Running it.' },
      {
        type: 'tool_use',
        id: 'toolu_sleep',
        name: 'bash',
        input: { command: 'touch started; sleep 300', timeout: 600_000 },
        cache_control: { type: 'ephemeral' },
      },
    ]);
    expect(messages[2]!.content).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_sleep', content: INTERRUPTED_RESULT, is_error: true },
      { type: 'text', text: 'what happened?', cache_control: { type: 'ephemeral' } },
    ]);
  }, 90_000);
});
