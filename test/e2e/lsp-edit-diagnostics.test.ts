/**
 * End to end: `bin/opencode -p` in a TypeScript project with typescript-language-server installed in
 * node_modules/.bin (found by discovery, no lsp config but a longer wait for a slow machine). The
 * scripted model views a file, edits it wrongly, sees the type error in the edit result, and fixes it;
 * the diagnostics tool is offered from the first request, before any server started.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { cleanEnv, runCli } from '../support/cli.js';

const ORIGINAL = 'export function greet(name: string): string {\n  return `hi ${name}`;\n}\n';

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe('opencode -p with a language server', () => {
  it('the model sees the type error its edit made and fixes it', { timeout: 300_000 }, async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'opencode-e2e-lsp-')), 'greet app');
    mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
    symlinkSync(
      join(import.meta.dirname, '..', '..', 'node_modules', '.bin', 'typescript-language-server'),
      join(dir, 'node_modules', '.bin', 'typescript-language-server'),
    );
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, noEmit: true } }));
    writeFileSync(
      join(dir, '.opencode.json'),
      JSON.stringify({
        lsp: {
          typescript: {
            command: join(dir, 'node_modules', '.bin', 'typescript-language-server'),
            diagnosticsTimeoutMs: 120_000,
          },
        },
      }),
    );
    const file = join(dir, 'greet.ts');
    writeFileSync(file, ORIGINAL);
    fake = await startFakeProvider([
      { toolCalls: [{ name: 'view', input: { file_path: file } }] },
      {
        toolCalls: [
          {
            name: 'edit',
            input: { file_path: file, old_string: '  return `hi ${name}`;', new_string: '  return name.length;' },
          },
        ],
      },
      {
        toolCalls: [
          {
            name: 'edit',
            input: {
              file_path: file,
              old_string: '  return name.length;',
              new_string: '  return `hi ${name} (${name.length})`;',
            },
          },
        ],
      },
      { text: 'Done: greet includes the length.' },
    ]);
    // PATH without node_modules/.bin: only the configured server
    const run = await runCli(['--trust', '-p', 'make greet mention the length', '-f', 'json'], {
      cwd: dir,
      timeoutMs: 240_000,
      env: cleanEnv({
        ANTHROPIC_API_KEY: 'sk-ant-test',
        ANTHROPIC_BASE_URL: fake.anthropicBaseURL,
        PATH: '/usr/bin:/bin',
      }),
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ response: 'Done: greet includes the length.' });
    expect(readFileSync(file, 'utf8')).toBe(
      'export function greet(name: string): string {\n  return `hi ${name} (${name.length})`;\n}\n',
    );

    // offered from the first request on
    const first = fake.requests.find((r) => r.body?.tools)!;
    expect(first.body.tools.map((t: { name: string }) => t.name)).toContain('diagnostics');

    const db = new Database(join(dir, '.opencode', 'opencode.db'), { readonly: true });
    try {
      const rows = db.prepare("SELECT parts FROM messages WHERE role = 'tool' ORDER BY seq").all() as {
        parts: string;
      }[];
      const results = rows.map((r) => JSON.parse(r.parts).find((p: { type: string }) => p.type === 'tool_result'));
      expect(results.map((r) => r.name)).toEqual(['view', 'edit', 'edit']);
      expect(results[1].content).toContain(
        `<file_diagnostics>\nError: ${file}:2:3 [typescript][2322] Type 'number' is not assignable to type 'string'.\n</file_diagnostics>\n`,
      );
      expect(results[2].content).not.toContain('diagnostic');
    } finally {
      db.close();
    }
  });

  it(
    '-p "say hi" starts the servers in the background, shuts them down at its end and answers as always',
    { timeout: 120_000 },
    async () => {
      const base = mkdtempSync(join(tmpdir(), 'opencode-e2e-lsp-'));
      const dir = join(base, 'project');
      mkdirSync(dir);
      const logFile = join(base, 'server.log');
      writeFileSync(join(dir, 'a.fk'), 'ERROR: x\n');
      writeFileSync(
        join(dir, '.opencode.json'),
        JSON.stringify({
          lsp: {
            fake: {
              command: process.execPath,
              args: [join(import.meta.dirname, '..', 'fixtures', 'fake-lsp-server.mjs'), 'normal'],
              extensions: ['.fk'],
              env: { FAKE_LSP_LOG: logFile },
            },
          },
        }),
      );
      fake = await startFakeProvider([{ text: 'hi' }]);
      const run = await runCli(['--trust', '-p', 'say hi'], {
        cwd: dir,
        env: cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.anthropicBaseURL }),
      });
      expect(run.stdout).toBe('hi\n');
      expect(run.code).toBe(0);
      // whatever the server got through before the answer, it was told to shut down: nothing is left running
      const log = existsSync(logFile)
        ? readFileSync(logFile, 'utf8')
            .trim()
            .split('\n')
            .map((l) => JSON.parse(l) as { pid: number; method?: string })
        : [];
      for (const pid of new Set(log.map((e) => e.pid))) expect(alive(pid)).toBe(false);
      // the tool is offered all the same
      expect(fake.requests[0]!.body.tools.map((t: { name: string }) => t.name)).toContain('diagnostics');
    },
  );

  it('with "lsp": false the diagnostics tool is not offered', { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-e2e-lsp-'));
    writeFileSync(join(dir, 'a.ts'), 'export const a = 1;\n');
    writeFileSync(join(dir, '.opencode.json'), JSON.stringify({ lsp: false }));
    fake = await startFakeProvider([{ text: 'hi' }]);
    const run = await runCli(['--trust', '-p', 'say hi'], {
      cwd: dir,
      env: cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.anthropicBaseURL }),
    });
    expect(run.code).toBe(0);
    expect(fake.requests[0]!.body.tools.map((t: { name: string }) => t.name)).not.toContain('diagnostics');
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
