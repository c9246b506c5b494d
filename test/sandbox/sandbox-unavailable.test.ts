/**
 * Where the sandbox cannot start: in `auto` commands run without it and `-p` says so once on stderr;
 * in `required` the bash tool refuses each command with the reason; `off` says nothing. Through the
 * built CLI and the fake provider; `OPENCODE_BWRAP_PATH` names a bwrap that does not exist.
 */
import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
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

const MISSING_BWRAP = '/nonexistent/bwrap';

/** The tool_result texts the model received in request `n`. */
function toolResultsSent(f: FakeProvider, n: number): string[] {
  const messages = f.answered[n].messages as { role: string; content: unknown }[];
  return (messages.at(-1)!.content as { type: string; content: unknown }[])
    .filter((b) => b.type === 'tool_result')
    .map((b) =>
      typeof b.content === 'string' ? b.content : (b.content as { text: string }[]).map((c) => c.text).join(''),
    );
}

async function runWith(sandbox: string) {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'opencode-sandbox-unavailable-')));
  writeFileSync(join(dir, '.opencode.json'), JSON.stringify({ sandbox }));
  fake = await startFakeProvider([
    { toolCalls: [{ name: 'bash', input: { command: 'echo ran' } }] },
    { text: 'Done.' },
  ]);
  const env = cleanEnv({
    ANTHROPIC_API_KEY: 'sk-ant-test',
    ANTHROPIC_BASE_URL: fake.anthropicBaseURL,
    OPENCODE_BWRAP_PATH: MISSING_BWRAP,
  });
  const run = await runCli(['--trust', '-p', 'run it'], { cwd: dir, env });
  return { run, results: toolResultsSent(fake, 1) };
}

describe.runIf(process.platform === 'linux')('the sandbox cannot start', () => {
  it('auto: the command runs without it, and -p says so once on stderr', async () => {
    const { run, results } = await runWith('auto');
    expect(run).toMatchObject({ code: 0, stdout: 'Done.\n' });
    expect(run.stderr).toMatch(
      /^opencode: commands run without the OS sandbox \(bwrap cannot start here: [^\n]*\): only the permission checks protect this run\n$/,
    );
    expect(results).toEqual(['ran']);
  });

  it('required: the command is refused with the reason', async () => {
    const { run, results } = await runWith('required');
    expect(run.stderr).toMatch(
      /^opencode: commands will be refused: "sandbox" is "required" and the sandbox cannot start \(bwrap cannot start here: /,
    );
    expect(results).toHaveLength(1);
    expect(results[0]).toMatch(
      /^Commands are not run: "sandbox" is "required" in the configuration and the sandbox cannot start here \(bwrap cannot start here: [^\n]*\)\. Install bubblewrap \(Linux\) or set "sandbox" to "auto"\.$/,
    );
  });

  it('off: the command runs and nothing is said', async () => {
    const { run, results } = await runWith('off');
    expect(run).toMatchObject({ code: 0, stdout: 'Done.\n', stderr: '' });
    expect(results).toEqual(['ran']);
  });
});
