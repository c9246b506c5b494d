/**
 * End to end: `bin/opencode -p "the add test fails; fix it" -f json` in a temp git repo with a failing
 * test. The scripted model runs glob → view → edit → bash (the project's test command) → final answer,
 * against the fake provider speaking each API's real wire format through the real SDKs.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeProvider, type FakeProvider, type FakeTurn } from '../support/fake-provider.js';
import { cleanEnv, runCli } from '../support/cli.js';
import { DEFAULT_MODELS } from '../../src/provider/catalog.js';

const BUGGY = 'export function add(a, b) {\n  return a - b;\n}\n';
const FIXED = 'export function add(a, b) {\n  return a + b;\n}\n';

function makeProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'opencode-e2e-'));
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'calc', type: 'module', scripts: { test: 'node test.js' } }, null, 2),
  );
  writeFileSync(join(dir, 'add.js'), BUGGY);
  writeFileSync(
    join(dir, 'test.js'),
    "import assert from 'node:assert';\nimport { add } from './add.js';\nassert.strictEqual(add(2, 3), 5);\nconsole.log('add test passed');\n",
  );
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'pipe' });
  git('init', '-q');
  git('-c', 'user.email=t@t', '-c', 'user.name=t', 'add', '.');
  git('-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qm', 'init');
  return dir;
}

function script(dir: string): FakeTurn[] {
  return [
    { text: 'Let me find the code.', toolCalls: [{ name: 'glob', input: { pattern: '**/*.js' } }] },
    { toolCalls: [{ name: 'view', input: { file_path: join(dir, 'add.js') } }] },
    {
      toolCalls: [
        {
          name: 'edit',
          input: { file_path: join(dir, 'add.js'), old_string: 'return a - b;', new_string: 'return a + b;' },
        },
      ],
    },
    { toolCalls: [{ name: 'bash', input: { command: 'npm test' } }] },
    { text: 'Fixed: `add` subtracted instead of adding. The test passes now.' },
  ];
}

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const providers = [
  // anthropic: the default model chosen by the credential; openai: picked with -m
  {
    name: 'anthropic',
    env: (f: FakeProvider) => ({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: f.anthropicBaseURL }),
    model: DEFAULT_MODELS.anthropic.coder,
    args: [],
  },
  {
    name: 'openai',
    env: (f: FakeProvider) => ({
      OPENAI_API_KEY: 'sk-openai-test',
      OPENAI_BASE_URL: f.openaiBaseURL,
      ANTHROPIC_API_KEY: 'sk-unused',
    }),
    model: 'openai/gpt-4.1',
    args: ['-m', 'openai/gpt-4.1'],
  },
] as const;

describe.each(providers)('opencode -p fixes a failing test ($name)', ({ name, env, model, args }) => {
  it('globs, views, edits, runs the tests and answers; the session is stored', async () => {
    const dir = makeProject();
    fake = await startFakeProvider(script(dir));
    const run = await runCli(['-p', 'the add test fails; fix it', '-f', 'json', ...args], {
      cwd: dir,
      env: cleanEnv(env(fake)),
    });

    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      response: 'Fixed: `add` subtracted instead of adding. The test passes now.',
    });
    expect(readFileSync(join(dir, 'add.js'), 'utf8')).toBe(FIXED);
    // the only change git sees is the fix: the data directory ignores itself
    expect(execFileSync('git', ['status', '--porcelain'], { cwd: dir, encoding: 'utf8' })).toBe(' M add.js\n');

    // every request was accepted and went to the chosen API
    expect(fake.requests.filter((r) => r.rejected)).toEqual([]);
    expect(fake.answered).toHaveLength(5);
    expect(fake.requests.every((r) => r.api === name)).toBe(true);

    const db = new Database(join(dir, '.opencode', 'opencode.db'), { readonly: true });
    try {
      const sessions = db.prepare('SELECT * FROM sessions').all() as Record<string, unknown>[];
      expect(sessions).toHaveLength(1);
      expect(sessions[0]!.title).toBe('Non-interactive: the add test fails; fix it');
      expect(sessions[0]!.parent_session_id).toBeNull();
      const rows = db
        .prepare('SELECT role, parts, model FROM messages WHERE session_id = ? ORDER BY seq')
        .all(sessions[0]!.id) as {
        role: string;
        parts: string;
        model: string | null;
      }[];
      expect(rows.map((r) => r.role)).toEqual([
        'user',
        'assistant',
        'tool',
        'assistant',
        'tool',
        'assistant',
        'tool',
        'assistant',
        'tool',
        'assistant',
      ]);
      expect(rows[1]!.model).toBe(model);
      const results = rows
        .filter((r) => r.role === 'tool')
        .map((r) => JSON.parse(r.parts).find((p: { type: string }) => p.type === 'tool_result'));
      expect(results.map((r) => [r.name, r.isError])).toEqual([
        ['glob', false],
        ['view', false],
        ['edit', false],
        ['bash', false],
      ]);
      expect(results[0].content.split('\n').sort()).toEqual([join(dir, 'add.js'), join(dir, 'test.js')]);
      expect(results[1].content).toContain('     2|  return a - b;');
      expect(results[2].content).toContain(`Content replaced in file: ${join(dir, 'add.js')}`);
      expect(results[3].content).toContain('add test passed');
      const last = JSON.parse(rows.at(-1)!.parts);
      expect(last).toContainEqual({
        type: 'text',
        text: 'Fixed: `add` subtracted instead of adding. The test passes now.',
      });
      expect(last.find((p: { type: string }) => p.type === 'finish').reason).toBe('end_turn');
      const files = db.prepare('SELECT path, version, content FROM files ORDER BY created_at, version').all() as {
        path: string;
        version: string;
        content: string;
      }[];
      expect(files.map((f) => [f.version, f.content])).toEqual([
        ['initial', BUGGY],
        ['v1', FIXED],
      ]);
      const usage = db.prepare('SELECT prompt_tokens, completion_tokens FROM sessions').get() as {
        prompt_tokens: number;
        completion_tokens: number;
      };
      expect(usage).toEqual({ prompt_tokens: 50, completion_tokens: 25 });
    } finally {
      db.close();
    }
  });
});
