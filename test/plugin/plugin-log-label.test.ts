/**
 * A plugin's own log lines are labelled with the plugin, not as opencode's warnings: with -p a warning
 * reads `opencode: [<plugin>] <message>` and an error `opencode: [<plugin>] error: <message>`.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanEnv, runCli } from '../support/cli.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe("a plugin's log lines", () => {
  it('carry its name with -p', { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-plugin-log-'));
    mkdirSync(join(dir, '.opencode', 'plugins'), { recursive: true });
    writeFileSync(
      join(dir, '.opencode', 'plugins', 'audit.mjs'),
      "export default async ({ log }) => {\n  log.info('only with --debug');\n  log.warn('audit log is 90% full');\n  log.error('cannot rotate the audit log');\n  return { hooks: { event: () => {} } };\n};\n",
    );
    fake = await startFakeProvider([{ text: 'hi' }]);
    const run = await runCli(['--trust', '-p', 'say hi'], {
      cwd: dir,
      env: cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.anthropicBaseURL }),
    });
    expect(run.stderr).toBe(
      'opencode: [.opencode/plugins/audit.mjs] audit log is 90% full\nopencode: [.opencode/plugins/audit.mjs] error: cannot rotate the audit log\n',
    );
    expect(run.stdout).toBe('hi\n');
    expect(run.code).toBe(0);
  });
});
