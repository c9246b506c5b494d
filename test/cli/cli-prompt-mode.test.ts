/**
 * `opencode -p` as a script sees it: flags, output formats, stdin, exit codes and one-line errors.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { cleanEnv, runCli } from '../support/cli.js';
import { themeFileJsonSchema } from '../../src/tui/theme-file.js';

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const project = () => mkdtempSync(join(tmpdir(), 'opencode-cli-'));
const anthropicEnv = (f: FakeProvider) =>
  cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-secret-key', ANTHROPIC_BASE_URL: f.anthropicBaseURL });

describe('opencode -p', () => {
  it('prints only the final answer as text', async () => {
    fake = await startFakeProvider([
      { text: 'Looking.', toolCalls: [{ name: 'ls', input: {} }] },
      { text: 'Two files.' },
    ]);
    const dir = project();
    const run = await runCli(['-p', 'what is here?'], { cwd: dir, env: anthropicEnv(fake) });
    expect(run).toMatchObject({ code: 0, stdout: 'Two files.\n', stderr: '' });
  });

  it('reads the prompt from stdin with -p -', async () => {
    fake = await startFakeProvider([{ text: 'Got it.' }]);
    const run = await runCli(['-p', '-', '-f', 'json'], {
      cwd: project(),
      env: anthropicEnv(fake),
      stdin: 'explain\nthe build\n',
    });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ response: 'Got it.' });
    // the trailing newline of the piped text is dropped, inner ones kept
    expect(fake.answered[0].messages[0].content[0].text).toBe('explain\nthe build');
  });

  it('reads a slow stdin pipe to its end (no EAGAIN)', async () => {
    fake = await startFakeProvider([{ text: 'ok' }]);
    const run = await runCli(['-p', '-'], {
      cwd: project(),
      env: anthropicEnv(fake),
      stdin: 'late prompt\n',
      stdinDelayMs: 700,
    });
    expect(run).toMatchObject({ code: 0, stdout: 'ok\n', stderr: '' });
    expect(fake.answered[0].messages[0].content[0].text).toBe('late prompt');
  });

  it('reports a failed write of the answer in one line (a full disk)', async () => {
    fake = await startFakeProvider([{ text: 'ok' }]);
    // async spawn: the fake provider lives in this process and must keep answering
    const { spawn } = await import('node:child_process');
    const { openSync } = await import('node:fs');
    const { BIN } = await import('../support/cli.js');
    const child = spawn(process.execPath, [BIN, '-p', 'hi'], {
      cwd: project(),
      env: anthropicEnv(fake),
      stdio: ['ignore', openSync('/dev/full', 'w'), 'pipe'],
    });
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    const run = { status, stderr };
    expect(run.status).toBe(1);
    expect(run.stderr).toBe('opencode: cannot write the answer: ENOSPC: no space left on device, write\n');
  });

  it('works in the directory given by -c', async () => {
    fake = await startFakeProvider([{ text: 'ok' }]);
    const dir = project();
    const run = await runCli(['-c', dir, '-p', 'hi'], { cwd: tmpdir(), env: anthropicEnv(fake) });
    expect(run.code).toBe(0);
    const db = new Database(join(dir, '.opencode', 'opencode.db'), { readonly: true });
    expect((db.prepare('SELECT count(*) AS n FROM sessions').get() as { n: number }).n).toBe(1);
    db.close();
    expect(fake.answered[0].system.map((b: { text: string }) => b.text).join('')).toContain(
      `Working directory: ${dir}`,
    );
  });

  it('fails with exit 1 and one line naming the cause when the provider fails; the key is never printed', async () => {
    fake = await startFakeProvider([{ httpStatus: 401, message: 'invalid x-api-key sk-ant-secret-key' }]);
    const run = await runCli(['-p', 'hi'], { cwd: project(), env: anthropicEnv(fake) });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/^opencode: .*401/);
    expect(run.stderr).not.toContain('sk-ant-secret-key');
  });

  it('keeps library console output off stdout: the SDK deprecation warning is one stderr line', async () => {
    fake = await startFakeProvider([{ toolCalls: [{ name: 'ls', input: {} }] }, { text: 'Answer.' }]);
    const run = await runCli(['-p', 'hi', '-f', 'json', '-m', 'anthropic/claude-sonnet-4-5'], {
      cwd: project(),
      env: anthropicEnv(fake),
    });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ response: 'Answer.' });
    expect(run.stderr.match(/^warning: The model 'claude-sonnet-4-5-20250929' is deprecated/gm)).toHaveLength(1);
  });

  it('runs twice at once in the same project; both succeed', async () => {
    fake = await startFakeProvider([
      { text: 'one', delayMs: 200 },
      { text: 'two', delayMs: 200 },
    ]);
    const dir = project();
    const [a, b] = await Promise.all([
      runCli(['-p', 'first'], { cwd: dir, env: anthropicEnv(fake) }),
      runCli(['-p', 'second'], { cwd: dir, env: anthropicEnv(fake) }),
    ]);
    expect([a.code, b.code]).toEqual([0, 0]);
    expect([a.stdout, b.stdout].sort()).toEqual(['one\n', 'two\n']);
    const db = new Database(join(dir, '.opencode', 'opencode.db'), { readonly: true });
    expect((db.prepare('SELECT count(*) AS n FROM messages').get() as { n: number }).n).toBe(4);
    db.close();
  });
});

describe('opencode usage and config errors (exit 2)', () => {
  it('says which key is missing when the chosen model has no credential, before creating anything', async () => {
    const dir = project();
    const run = await runCli(['-m', 'openai/gpt-4.1', '-p', 'hi'], {
      cwd: dir,
      env: cleanEnv({ ANTHROPIC_API_KEY: 'k' }),
    });
    expect(run).toMatchObject({
      code: 2,
      stderr:
        'opencode: No credentials for provider "openai" (model openai/gpt-4.1): set OPENAI_API_KEY or providers.openai.apiKey.\n',
    });
    expect(existsSync(join(dir, '.opencode'))).toBe(false);
  });

  it('points a bare prompt argument at -p', async () => {
    const run = await runCli(['fix', 'it'], { cwd: project(), env: cleanEnv() });
    expect(run).toMatchObject({
      code: 2,
      stderr: 'opencode: unexpected argument "fix it". To run a prompt: opencode -p "fix it"\n',
    });
  });

  it('names what to set when there is no credential at all', async () => {
    const run = await runCli(['-p', 'hi'], { cwd: project(), env: cleanEnv() });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('ANTHROPIC_API_KEY');
    expect(run.stderr).toContain('providers.<provider>.apiKey');
    expect(run.stderr).toContain('LOCAL_ENDPOINT');
  });

  it('prints one line per config problem, without a stack trace', async () => {
    const dir = project();
    writeFileSync(
      join(dir, '.opencode.json'),
      JSON.stringify({ agents: { coder: { maxTokens: 'lots' } }, autoCompact: 'yes' }),
    );
    const run = await runCli(['-p', 'hi'], { cwd: dir, env: cleanEnv({ ANTHROPIC_API_KEY: 'k' }) });
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n').sort()).toEqual([
      `${join(dir, '.opencode.json')}: agents.coder.maxTokens: expected number, got string`,
      `${join(dir, '.opencode.json')}: autoCompact: expected boolean, got string`,
    ]);
  });

  it('warns about unknown keys and still runs', async () => {
    fake = await startFakeProvider([{ text: 'ok' }]);
    const dir = project();
    writeFileSync(join(dir, '.opencode.json'), JSON.stringify({ colour: 'blue' }));
    const run = await runCli(['-p', 'hi'], { cwd: dir, env: anthropicEnv(fake) });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe(`warning: ${join(dir, '.opencode.json')}: colour: unknown key\n`);
  });

  it('rejects a bad -f value, a bad -m value and a missing -c directory', async () => {
    const env = cleanEnv({ ANTHROPIC_API_KEY: 'k' });
    const badFormat = await runCli(['-p', 'hi', '-f', 'xml'], { cwd: project(), env });
    expect(badFormat.code).toBe(2);
    expect(badFormat.stderr).toContain("option '-f, --output-format <format>' argument 'xml' is invalid");
    const badModel = await runCli(['-p', 'hi', '-m', 'gpt4'], { cwd: project(), env });
    expect(badModel.code).toBe(2);
    expect(badModel.stderr).toContain('expected provider/model');
    const unknownModel = await runCli(['-p', 'hi', '-m', 'anthropic/claude-9'], { cwd: project(), env });
    expect(unknownModel.code).toBe(2);
    expect(unknownModel.stderr).toMatch(/^opencode: .*anthropic\/claude-9/);
    const noDir = await runCli(['-c', '/no/such/dir', '-p', 'hi'], { cwd: project(), env });
    expect(noDir).toMatchObject({ code: 2, stderr: 'opencode: --cwd /no/such/dir: no such directory\n' });
  });

  it('fails with exit 1 when the session database cannot be written', async () => {
    const dir = project();
    writeFileSync(join(dir, 'blocker'), 'a file where the data directory should be');
    writeFileSync(join(dir, '.opencode.json'), JSON.stringify({ data: { directory: 'blocker/data' } }));
    const run = await runCli(['-p', 'hi'], { cwd: dir, env: cleanEnv({ ANTHROPIC_API_KEY: 'k' }) });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^opencode: cannot open the session database: /);
  });
});

describe('opencode sub-commands', () => {
  it('prints the version', async () => {
    const { version } = JSON.parse(
      (await import('node:fs')).readFileSync(join(import.meta.dirname, '..', '..', 'package.json'), 'utf8'),
    );
    const run = await runCli(['--version'], { cwd: project(), env: cleanEnv() });
    expect(run).toMatchObject({ code: 0, stdout: `${version}\n` });
  });

  it('prints the JSON Schema of the config', async () => {
    const run = await runCli(['schema'], { cwd: project(), env: cleanEnv() });
    expect(run.code).toBe(0);
    const schema = JSON.parse(run.stdout);
    expect(Object.keys(schema.properties)).toEqual(
      expect.arrayContaining([
        'data',
        'providers',
        'agents',
        'mcpServers',
        'lsp',
        'shell',
        'autoCompact',
        'contextPaths',
        'tui',
        'debug',
      ]),
    );
    // the theme file's schema is in the same document, without a dialect of its own
    const { $schema: dialect, ...themeFile } = themeFileJsonSchema();
    expect(dialect).toBe(schema.$schema);
    expect(schema.$defs.themeFile).toEqual(themeFile);
    expect(Object.keys(schema.$defs.themeFile.properties.theme.properties)).toContain('background');
  });

  it('lists the flags in --help', async () => {
    const run = await runCli(['--help'], { cwd: project(), env: cleanEnv() });
    for (const flag of [
      '-p, --prompt',
      '-f, --output-format',
      '-q, --quiet',
      '-c, --cwd',
      '-m, --model',
      '-d, --debug',
      '-v, --version',
    ]) {
      expect(run.stdout).toContain(flag);
    }
  });
});
