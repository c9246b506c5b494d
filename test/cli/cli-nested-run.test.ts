/**
 * An opencode started by another opencode's command: the bash tool's commands carry OPENCODE_SANDBOXED=1,
 * and an `opencode -p` that sees it refuses what would ask instead of approving it. Through the built CLI,
 * the outer run starting the inner one for real, both talking to one fake provider.
 */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { BIN, cleanEnv, runCli } from '../support/cli.js';
import { HARM_MCP_FIXTURE } from '../support/harm-targets.js';

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const project = () => mkdtempSync(join(tmpdir(), 'opencode-nested-'));
const env = (f: FakeProvider, extra: Record<string, string> = {}) =>
  cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: f.anthropicBaseURL, ...extra });

/** The tool_result blocks the model received in request `n` (Anthropic wire format), as [content text, is_error]. */
function toolResultsSent(f: FakeProvider, n: number): [string, boolean][] {
  const messages = f.answered[n].messages as { role: string; content: unknown }[];
  const last = messages.at(-1)!;
  return (last.content as { type: string; content: unknown; is_error?: boolean }[])
    .filter((b) => b.type === 'tool_result')
    .map((b) => [
      typeof b.content === 'string' ? b.content : (b.content as { text: string }[]).map((c) => c.text).join(''),
      b.is_error === true,
    ]);
}

const refusal = (description: string) =>
  `Permission denied: this opencode was started by another opencode's command (OPENCODE_SANDBOXED=1), so it approves nothing by itself and this call needs approval: ${description}`;
const NOTE =
  "opencode: started by another opencode's command (OPENCODE_SANDBOXED=1): calls that would ask permission are refused, not approved\n";

describe('opencode -p started by an opencode command', () => {
  it('with OPENCODE_SANDBOXED=1 refuses an edit that would ask; the file is unchanged, the model and stderr say why', async () => {
    const dir = project();
    const file = join(dir, 'notes.txt');
    writeFileSync(file, 'one\n');
    fake = await startFakeProvider([
      { toolCalls: [{ name: 'view', input: { file_path: file } }] },
      { toolCalls: [{ name: 'edit', input: { file_path: file, old_string: 'one', new_string: 'two' } }] },
      { text: 'Not allowed.' },
    ]);
    const run = await runCli(['-p', 'change one to two'], { cwd: dir, env: env(fake, { OPENCODE_SANDBOXED: '1' }) });
    expect(run).toMatchObject({ code: 0, stdout: 'Not allowed.\n', stderr: NOTE });
    expect(readFileSync(file, 'utf8')).toBe('one\n');
    expect(toolResultsSent(fake, 2)).toEqual([[refusal(`Replace content in file ${file}`), true]]);
  });

  it('the control: without the variable the same run approves the edit', async () => {
    const dir = project();
    const file = join(dir, 'notes.txt');
    writeFileSync(file, 'one\n');
    fake = await startFakeProvider([
      { toolCalls: [{ name: 'view', input: { file_path: file } }] },
      { toolCalls: [{ name: 'edit', input: { file_path: file, old_string: 'one', new_string: 'two' } }] },
      { text: 'Done.' },
    ]);
    const run = await runCli(['-p', 'change one to two'], { cwd: dir, env: env(fake) });
    expect(run).toMatchObject({ code: 0, stdout: 'Done.\n', stderr: '' });
    expect(readFileSync(file, 'utf8')).toBe('two\n');
  });

  it('a deny rule still holds and says so, and what the rules allow still runs', async () => {
    const dir = project();
    writeFileSync(
      join(dir, '.opencode.json'),
      JSON.stringify({ permission: { write: { 'ok.txt': 'allow', 'no.txt': 'deny' } } }),
    );
    fake = await startFakeProvider([
      {
        toolCalls: [
          { name: 'write', input: { file_path: 'ok.txt', content: 'ok\n' } },
          { name: 'write', input: { file_path: 'no.txt', content: 'no\n' } },
        ],
      },
      { text: 'Done.' },
    ]);
    const run = await runCli(['-p', 'write'], { cwd: dir, env: env(fake, { OPENCODE_SANDBOXED: '1' }) });
    expect(run).toMatchObject({ code: 0, stdout: 'Done.\n' });
    expect(readFileSync(join(dir, 'ok.txt'), 'utf8')).toBe('ok\n');
    expect(toolResultsSent(fake, 1)).toEqual([
      [`<result>\nFile successfully written: ${join(dir, 'ok.txt')}\n</result>`, false],
      [
        'Permission denied: changing no.txt is denied by the permission rule write "no.txt": "deny". ' +
          "This is the user's standing rule: do not try to get around it; do the task another way or ask the user.",
        true,
      ],
    ]);
  });

  it("the model's bash command starts opencode -p: the inner run refuses its edit, the outer run approved the command", async () => {
    const dir = project();
    const file = join(dir, 'notes.txt');
    writeFileSync(file, 'one\n');
    // the inner run needs the provider key, which the shell's commands do not get by default, and the
    // network, which a command run without the person's approval has not in the sandbox: this is about approvals
    writeFileSync(
      join(dir, '.opencode.json'),
      JSON.stringify({ sandbox: 'off', shell: { passEnv: ['ANTHROPIC_API_KEY'] } }),
    );
    const inner = `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} -q -p 'change one to two'`;
    fake = await startFakeProvider([
      // the outer run's first request: the command that starts the inner run
      { toolCalls: [{ name: 'bash', input: { command: inner } }] },
      // the inner run's three requests
      { toolCalls: [{ name: 'view', input: { file_path: file } }] },
      { toolCalls: [{ name: 'edit', input: { file_path: file, old_string: 'one', new_string: 'two' } }] },
      { text: 'Inner: not allowed.' },
      // the outer run's last request
      { text: 'Outer: done.' },
    ]);
    // --trust: the project's shell.passEnv hands the provider key to the inner run
    const outerEnv = env(fake);
    const run = await runCli(['-p', 'run opencode inside', '--trust'], { cwd: dir, env: outerEnv });
    expect(run).toMatchObject({ code: 0, stdout: 'Outer: done.\n', stderr: '' });
    expect(readFileSync(file, 'utf8')).toBe('one\n');
    expect(toolResultsSent(fake, 3)).toEqual([[refusal(`Replace content in file ${file}`), true]]);
    // what the outer run's model saw from its command: the inner answer, then the inner run's note
    // (the inner run cannot be trusted, so it leaves out the project's passEnv and its "sandbox": "off": it inherited the key)
    const untrusted =
      'opencode: this project is not trusted, so its own code was not started: shell shell.passEnv (ANTHROPIC_API_KEY), sandbox setting sandbox ("off"). ' +
      `To run it: --trust (this run), or \`opencode trust\` in the project (adds it to ${outerEnv.HOME}/.config/opencode/trusted-projects.json)`;
    expect(toolResultsSent(fake, 4)).toEqual([[`Inner: not allowed.\n${untrusted}\n${NOTE.trimEnd()}`, false]]);
  });
});

describe.runIf(process.platform === 'linux')('opencode started by a sandboxed opencode command', () => {
  it('keeps the outer sandbox: with "sandbox": "required", `opencode mcp list` inside starts its server (no sandbox can start inside one)', async () => {
    const dir = project();
    const server = {
      command: process.execPath,
      args: [HARM_MCP_FIXTURE],
      env: { HARM_OUTSIDE: join(dir, 'x'), HARM_PROJECT: dir, HARM_PORT: '9' },
    };
    writeFileSync(join(dir, '.opencode.json'), JSON.stringify({ sandbox: 'required', mcpServers: { harm: server } }));
    fake = await startFakeProvider([
      // what the outer sandbox tells what runs in it, then an opencode command that starts the project's server
      {
        toolCalls: [
          {
            name: 'bash',
            input: {
              command: `printenv OPENCODE_SANDBOXED OPENCODE_SANDBOX_LEVEL && ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} mcp list`,
            },
          },
        ],
      },
      { text: 'Done.' },
    ]);
    // the person trusted the project earlier (a nested run cannot trust one itself, and the user's own
    // config file is hidden in the sandbox: it holds provider keys)
    const outerEnv = env(fake);
    mkdirSync(join(outerEnv.HOME!, '.config', 'opencode'), { recursive: true });
    writeFileSync(
      join(outerEnv.HOME!, '.config', 'opencode', 'trusted-projects.json'),
      JSON.stringify({ projects: [realpathSync(dir)] }),
    );
    const run = await runCli(['-p', 'list the servers'], { cwd: dir, env: outerEnv });
    expect(run).toMatchObject({ code: 0, stdout: 'Done.\n', stderr: '' });
    expect(toolResultsSent(fake, 1)).toEqual([
      ['1\nstrict\nharm  stdio  connected, 1 tool\n  harm_harm_report', false],
    ]);
  });
});
