/**
 * End to end: `opencode -p` in a project whose rules deny every command but ls. The scripted model
 * runs `ls && rm -rf victim`; the rule on the second part denies the whole line, `victim` stays, and
 * the model is told which rule refused it in its next request, then answers.
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

describe('opencode -p with "bash": {"*": "deny", "ls*": "allow"}', () => {
  it('refuses ls && rm -rf victim as a whole; victim stays; the model receives the denial', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-e2e-perm-'));
    mkdirSync(join(dir, 'victim'));
    writeFileSync(join(dir, 'victim', 'data.txt'), 'precious\n');
    writeFileSync(
      join(dir, '.opencode.json'),
      JSON.stringify({ permission: { bash: { '*': 'deny', 'ls*': 'allow' } } }, null, 2),
    );
    fake = await startFakeProvider([
      { toolCalls: [{ id: 'toolu_rm', name: 'bash', input: { command: 'ls && rm -rf victim' } }] },
      { toolCalls: [{ id: 'toolu_ls', name: 'bash', input: { command: 'ls' } }] },
      { text: 'I may list files but not delete them.' },
    ]);
    const env = cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.anthropicBaseURL });

    const run = await runCli(['-p', 'clean up the victim folder'], { cwd: dir, env });

    expect(run).toMatchObject({ code: 0, stdout: 'I may list files but not delete them.\n', stderr: '' });
    expect(existsSync(join(dir, 'victim', 'data.txt'))).toBe(true);
    expect(fake.answered).toHaveLength(3);
    const denial = fake.answered[1].messages.at(-1).content[0];
    expect(denial).toMatchObject({
      type: 'tool_result',
      tool_use_id: 'toolu_rm',
      is_error: true,
      content:
        'Permission denied: `rm -rf victim` is denied by the permission rule bash "*": "deny". ' +
        "This is the user's standing rule: do not try to get around it; do the task another way or ask the user.",
    });
    // the allowed command alone still runs
    const listing = fake.answered[2].messages.at(-1).content[0];
    expect(listing).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_ls' });
    expect(listing.is_error ?? false).toBe(false);
    expect(JSON.stringify(listing.content)).toContain('victim');
  });
});
