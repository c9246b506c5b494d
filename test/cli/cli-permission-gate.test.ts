/**
 * End to end: `opencode -p` in a trusted project whose plugin has a tool that never asks, under a
 * `deny` rule for it. The scripted model calls the tool; it does not run (its file is not written),
 * the model is told which rule refused it and answers, and `-f stream-json` reports the refusal as a
 * permission line. Real bin/opencode, a real plugin file, the loopback fake provider.
 */
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { cleanEnv, runCli } from '../support/cli.js';

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const DENIAL =
  'Permission denied: plugin_mark is denied by the permission rule plugin_mark "*": "deny". ' +
  "This is the user's standing rule: do not try to get around it; do the task another way or ask the user.";

describe('opencode -p with "plugin_mark": "deny"', () => {
  it('refuses the plugin tool that never asks before it runs; the model hears which rule; stream-json reports it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-cli-gate-'));
    mkdirSync(join(dir, '.opencode', 'plugins'), { recursive: true });
    writeFileSync(
      join(dir, '.opencode', 'plugins', 'marks.mjs'),
      "import { writeFileSync } from 'node:fs';\nimport { join } from 'node:path';\n" +
        "export default async ({ directory }) => ({ tools: { plugin_mark: { description: 'Writes plugin.txt.', args: {}, execute: async () => { writeFileSync(join(directory, 'plugin.txt'), 'x'); return 'marked'; } } } });\n",
    );
    writeFileSync(join(dir, '.opencode.json'), JSON.stringify({ permission: { plugin_mark: 'deny' } }, null, 2));
    fake = await startFakeProvider([
      { toolCalls: [{ id: 'toolu_mark', name: 'plugin_mark', input: {} }] },
      { text: 'The rule forbids it.' },
    ]);
    const env = cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.anthropicBaseURL });

    const run = await runCli(['--trust', '-p', 'mark the project', '-f', 'stream-json'], { cwd: dir, env });

    expect(run.code).toBe(0);
    expect(existsSync(join(dir, 'plugin.txt'))).toBe(false);
    expect(fake.answered[1].messages.at(-1).content[0]).toMatchObject({
      type: 'tool_result',
      tool_use_id: 'toolu_mark',
      is_error: true,
      content: DENIAL,
    });
    const lines = run.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.filter((l) => l.type === 'permission')).toEqual([
      {
        type: 'permission',
        time: expect.any(Number),
        sessionId: lines[0]!.sessionId,
        toolName: 'plugin_mark',
        decision: 'deny',
        by: 'rule',
        description: 'execute plugin_mark with the following parameters: {}',
        message: DENIAL,
      },
    ]);
    expect(lines.at(-1)).toMatchObject({ type: 'result', text: 'The rule forbids it.' });
  });
});
