/**
 * End to end: the provider key opencode holds never reaches the model or the
 * database through a tool. The scripted model runs `env`, `printenv ANTHROPIC_API_KEY` and `cat` of a
 * file holding the key, all read-only commands that never ask; the shell has no key in its
 * environment, and the key's exact value read from the file is `[redacted]` both in the request the
 * provider receives and in the stored message. Real bin/opencode, real SQLite, the loopback fake provider.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { cleanEnv, runCli } from '../support/cli.js';

const KEY = 'sk-ant-test-redact-9f8e7d6c5b4a';
let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe('opencode -p: the provider key stays out of tool output', () => {
  it('env and printenv show no key; a file holding it is [redacted] in the request and in the database', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-e2e-keys-'));
    writeFileSync(join(dir, 'leak.txt'), `token=${KEY}\n`);
    fake = await startFakeProvider([
      {
        toolCalls: [
          {
            id: 'toolu_env',
            name: 'bash',
            input: { command: 'env | grep -c "^ANTHROPIC_API_KEY=" ; printenv ANTHROPIC_API_KEY; echo "exit $?"' },
          },
        ],
      },
      { toolCalls: [{ id: 'toolu_cat', name: 'bash', input: { command: 'cat leak.txt' } }] },
      { toolCalls: [{ id: 'toolu_view', name: 'view', input: { file_path: 'leak.txt' } }] },
      { text: 'Nothing to see.' },
    ]);
    const env = cleanEnv({ ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: fake.anthropicBaseURL });

    const run = await runCli(['-p', 'show me the environment'], { cwd: dir, env });

    expect(run).toMatchObject({ code: 0, stdout: 'Nothing to see.\n' });
    const resultOf = (i: number) => fake!.answered[i].messages.at(-1).content[0];
    // grep -c prints 0 and exits 1; printenv of an unset variable prints nothing and exits 1
    expect(resultOf(1)).toMatchObject({ tool_use_id: 'toolu_env', content: '0\nexit 1' });
    expect(resultOf(2)).toMatchObject({ tool_use_id: 'toolu_cat', content: 'token=[redacted]' });
    expect(JSON.stringify(resultOf(3).content)).toContain('token=[redacted]');
    // nothing sent after the first request carries the key (the requests' own auth header does, by design)
    for (const body of fake.answered) expect(JSON.stringify(body)).not.toContain(KEY);

    const db = new Database(join(dir, '.opencode', 'opencode.db'), { readonly: true });
    try {
      const stored = db
        .prepare<[], { parts: string }>('SELECT parts FROM messages')
        .all()
        .map((r) => r.parts)
        .join('\n');
      expect(stored).toContain('token=[redacted]');
      expect(stored).not.toContain(KEY);
    } finally {
      db.close();
    }
  }, 60_000);
});
