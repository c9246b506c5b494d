/**
 * Permissions in `opencode -p`: deny rules hold, what would ask is approved unless --no-auto-approve,
 * and a bad `permission` value is a config error. Through the built CLI and the fake provider.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
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

const project = () => mkdtempSync(join(tmpdir(), 'opencode-perm-cli-'));
const env = (f: FakeProvider) => cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: f.anthropicBaseURL });

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

describe('opencode -p --no-auto-approve', () => {
  it('refuses an edit that would ask; the file is unchanged and the model is told why', async () => {
    const dir = project();
    const file = join(dir, 'notes.txt');
    writeFileSync(file, 'one\n');
    fake = await startFakeProvider([
      { toolCalls: [{ name: 'view', input: { file_path: file } }] },
      { toolCalls: [{ name: 'edit', input: { file_path: file, old_string: 'one', new_string: 'two' } }] },
      { text: 'I was not allowed to edit notes.txt.' },
    ]);
    const run = await runCli(['-p', 'change one to two', '--no-auto-approve'], { cwd: dir, env: env(fake) });
    expect(run).toMatchObject({ code: 0, stdout: 'I was not allowed to edit notes.txt.\n', stderr: '' });
    expect(readFileSync(file, 'utf8')).toBe('one\n');
    expect(toolResultsSent(fake, 2)).toEqual([
      [
        `Permission denied: opencode -p was run with --no-auto-approve and this call needs approval: Replace content in file ${file}`,
        true,
      ],
    ]);
  });

  it('still runs what the rules allow', async () => {
    const dir = project();
    const file = join(dir, 'notes.txt');
    writeFileSync(file, 'one\n');
    writeFileSync(join(dir, '.opencode.json'), JSON.stringify({ permission: { edit: { 'notes.txt': 'allow' } } }));
    fake = await startFakeProvider([
      { toolCalls: [{ name: 'view', input: { file_path: file } }] },
      { toolCalls: [{ name: 'edit', input: { file_path: file, old_string: 'one', new_string: 'two' } }] },
      { text: 'Done.' },
    ]);
    const run = await runCli(['-p', 'change one to two', '--no-auto-approve'], { cwd: dir, env: env(fake) });
    expect(run).toMatchObject({ code: 0, stdout: 'Done.\n' });
    expect(readFileSync(file, 'utf8')).toBe('two\n');
  });
});

describe('opencode -p with permission rules', () => {
  it('approves what would ask (the original), but a deny rule holds and the model hears which rule', async () => {
    const dir = project();
    writeFileSync(
      join(dir, '.opencode.json'),
      JSON.stringify({ permission: { write: { '*': 'ask', '.env*': 'deny' } } }, null, 2),
    );
    fake = await startFakeProvider([
      {
        toolCalls: [
          { name: 'write', input: { file_path: '.env', content: 'TOKEN=x\n' } },
          { name: 'write', input: { file_path: 'README.md', content: '# p\n' } },
        ],
      },
      { text: 'Wrote the README; .env is off limits.' },
    ]);
    const run = await runCli(['-p', 'write files'], { cwd: dir, env: env(fake) });
    expect(run).toMatchObject({ code: 0, stdout: 'Wrote the README; .env is off limits.\n' });
    expect(readFileSync(join(dir, 'README.md'), 'utf8')).toBe('# p\n');
    expect(() => readFileSync(join(dir, '.env'))).toThrow(/ENOENT/);
    expect(toolResultsSent(fake, 1)).toEqual([
      [
        'Permission denied: changing .env is denied by the permission rule write ".env*": "deny". ' +
          "This is the user's standing rule: do not try to get around it; do the task another way or ask the user.",
        true,
      ],
      [`<result>\nFile successfully written: ${join(dir, 'README.md')}\n</result>`, false],
    ]);
  });

  it('reports a bad permission value as one config line, exit 2', async () => {
    const dir = project();
    writeFileSync(join(dir, '.opencode.json'), JSON.stringify({ permission: { bash: { 'rm *': 'never' } } }));
    const run = await runCli(['-p', 'hi'], { cwd: dir, env: cleanEnv({ ANTHROPIC_API_KEY: 'k' }) });
    expect(run).toMatchObject({
      code: 2,
      stderr: `${join(dir, '.opencode.json')}: permission.bash.rm *: expected one of "allow", "ask", "deny", got "never"\n`,
    });
  });

  it('lists --no-auto-approve in --help', async () => {
    const run = await runCli(['--help'], { cwd: project(), env: cleanEnv() });
    expect(run.stdout).toContain('--no-auto-approve');
  });
});
