/**
 * `opencode -p`'s stdout holds only the answer (or the stream-json lines), as the README says: a
 * plugin that writes to stdout or logs with console.* while it loads or in its hooks lands on
 * stderr, as in `opencode acp`. Real bin/opencode, a real plugin file, the loopback fake provider.
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

/** Writes to stdout at import, at load and in a tool hook; console.log at import and in an event hook. */
const NOISY_PLUGIN = `
process.stdout.write('import write\\n');
console.log('import console.log');
export default async () => {
  process.stdout.write('raw write\\n');
  return {
    hooks: {
      'tool.execute.before': async (call) => {
        process.stdout.write('hook write ' + call.tool + '\\n');
      },
      event: async (e) => {
        if (e.type === 'run.started') console.log('event console.log');
      },
    },
  };
};
`;

/** A project with `.opencode/plugins/noisy.js`. */
function noisyProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'opencode-p-noisy-'));
  mkdirSync(join(dir, '.opencode', 'plugins'), { recursive: true });
  writeFileSync(join(dir, '.opencode', 'plugins', 'noisy.js'), NOISY_PLUGIN);
  return dir;
}

const turns = () => [
  { text: 'Creating it.', toolCalls: [{ id: 'toolu_touch', name: 'bash', input: { command: 'touch made.txt' } }] },
  { text: 'Done: made.txt exists.' },
];
const envFor = (f: FakeProvider) =>
  cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: f.anthropicBaseURL });

describe("opencode -p: a plugin's own output stays off stdout", () => {
  it("prints only the answer; the plugin's stdout writes go to stderr, its console.log nowhere without -d", async () => {
    fake = await startFakeProvider(turns());
    const dir = noisyProject();
    const run = await runCli(['--trust', '-p', 'make made.txt'], { cwd: dir, env: envFor(fake) });
    expect(run.code).toBe(0);
    expect(existsSync(join(dir, 'made.txt'))).toBe(true);
    expect(run.stdout).toBe('Done: made.txt exists.\n');
    expect(run.stderr).toBe('import write\nraw write\nhook write bash\n');
  });

  it('shows the console.log lines on stderr as [debug] with -d, stdout still only the answer', async () => {
    fake = await startFakeProvider(turns());
    const run = await runCli(['--trust', '-p', 'make made.txt', '-d'], { cwd: noisyProject(), env: envFor(fake) });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('Done: made.txt exists.\n');
    expect(run.stderr).toContain('raw write\n');
    expect(run.stderr).toContain('[debug] import console.log\n');
    expect(run.stderr).toContain('[debug] event console.log\n');
  });

  it('keeps -f json and -f stream-json parseable: every stdout line is JSON', async () => {
    fake = await startFakeProvider(turns());
    const json = await runCli(['--trust', '-p', 'make made.txt', '-f', 'json'], {
      cwd: noisyProject(),
      env: envFor(fake),
    });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({ response: 'Done: made.txt exists.' });

    await fake.close();
    fake = await startFakeProvider(turns());
    const stream = await runCli(['--trust', '-p', 'make made.txt', '-f', 'stream-json'], {
      cwd: noisyProject(),
      env: envFor(fake),
    });
    expect(stream.code).toBe(0);
    expect(stream.stderr).toBe('import write\nraw write\nhook write bash\n');
    const lines = stream.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string });
    expect(lines[0]!.type).toBe('session');
    expect(lines.at(-1)!.type).toBe('result');
    expect(lines.filter((l) => l.type === 'tool_call')).toHaveLength(1);
  });
});
