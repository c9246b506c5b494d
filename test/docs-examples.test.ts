/**
 * Each page of docs/ starts with an example that runs as written: its first `sh` block, run by bash in
 * a fresh project folder with the checkout's `bin/opencode` on PATH (and, where the page says a
 * provider key is needed, the loopback fake provider as the Anthropic API), gives what the page says.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanEnv, type CliRun } from './support/cli.js';
import { startFakeProvider, type FakeProvider, type FakeTurn } from './support/fake-provider.js';

const ROOT = join(import.meta.dirname, '..');

/** The first ```sh block of a page, before its first `## ` section: the page's opening example. */
function openingExample(page: string): string {
  const text = readFileSync(join(ROOT, 'docs', page), 'utf8');
  const head = text.slice(0, text.indexOf('\n## '));
  const block = /```sh\n([\s\S]*?)```/.exec(head);
  if (!block) throw new Error(`docs/${page} does not start with a sh example`);
  return block[1]!;
}

function runBash(script: string, cwd: string, env: Record<string, string>): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-e', '-o', 'pipefail', '-c', script], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

interface Case {
  page: string;
  /** what the fake model answers, in order, for pages whose example asks a model */
  turns?: FakeTurn[];
  /** the folder the example runs in, from a fresh temp dir (default: the temp dir itself) */
  setUp?: (dir: string) => void;
  check: (run: CliRun, dir: string) => void;
}

const CASES: Case[] = [
  {
    page: 'scripts.md',
    turns: [{ text: 'No TODOs.' }, { text: 'No TODOs.' }],
    check: (run) =>
      expect(run.stdout).toMatch(
        /^\{\n {2}"response": "No TODOs\."\n\}\n\{"reason":"end_turn","costUsd":[0-9.e-]+\}\n0\n$/,
      ),
  },
  {
    page: 'keybindings.md',
    check: (run) => expect(run.stdout).toMatch(/^app\.logs +ctrl\+l +ctrl\+l, f2 +Show the logs page\n$/),
  },
  {
    page: 'themes.md',
    check: (run, dir) =>
      expect(run.stdout.trimEnd().split('\n').at(-1)).toMatch(
        new RegExp(`^ +mine +project +${dir}/\\.opencode/themes/mine\\.json$`),
      ),
  },
  {
    page: 'sessions.md',
    turns: [{ text: 'Only a README.' }],
    check: (run) => {
      expect(run.stdout.startsWith('Only a README.\n')).toBe(true);
      expect(run.stdout.match(/Non-interactive: what is in this folder\?/g)?.length).toBe(2);
      expect(run.stdout.match(/Only a README\./g)?.length).toBe(2);
    },
  },
  {
    page: 'providers.md',
    check: (run) =>
      expect(run.stdout).toBe(
        '  local\n    coder  local/qwen3-coder\n    local  http://localhost:11434/v1  no key needed\nNo profile is active; choose one with --profile NAME or OPENCODE_PROFILE=NAME.\n',
      ),
  },
  {
    page: 'configuration.md',
    check: (run, dir) => {
      expect(run.stdout).toBe('the config is valid\n');
      expect(JSON.parse(readFileSync(join(dir, 'opencode-schema.json'), 'utf8'))).toHaveProperty('properties.agents');
    },
  },
  {
    page: 'tools.md',
    check: (run) => expect(run.stdout).toMatch(/^sourcegraph +built-in +off \("tools" in \.opencode\.json\)$/m),
  },
  {
    page: 'lsp.md',
    check: (run) =>
      expect(run.stdout).toMatch(
        /^typescript +typescript-language-server --stdio\n {2}config: configured in lsp\.typescript\n/,
      ),
  },
  {
    page: 'custom-tools.md',
    setUp: (dir) =>
      cpSync(join(ROOT, 'examples', 'custom-tools'), join(dir, 'examples', 'custom-tools'), { recursive: true }),
    check: (run) => {
      expect(run.stdout).toMatch(/^query_service_status +project +\.opencode\/tools\/query_service_status\.yaml$/m);
      expect(run.stdout).toMatch(/^ {2}\.opencode\/plugins\/block-env\.ts +hooks: tool\.execute\.before$/m);
    },
  },
  {
    page: 'editors.md',
    check: (run) =>
      expect(JSON.parse(run.stdout)).toMatchObject({
        jsonrpc: '2.0',
        id: 1,
        result: { protocolVersion: 1, agentInfo: { name: 'opencode' } },
      }),
  },
  {
    page: 'permissions-and-sandbox.md',
    turns: [
      { toolCalls: [{ id: 'toolu_test', name: 'bash', input: { command: 'npm test' } }] },
      { toolCalls: [{ id: 'toolu_rm', name: 'bash', input: { command: 'rm -rf build' } }] },
      { text: 'The tests ran; the build folder stays.' },
    ],
    check: (run) => {
      expect(run.stdout).toBe('The tests ran; the build folder stays.\n');
      const results = fake!.requests
        .filter((r) => r.api === 'anthropic')
        .at(-1)!
        .body.messages.flatMap((m: { content: unknown }) => (Array.isArray(m.content) ? m.content : []))
        .filter((b: { type: string }) => b.type === 'tool_result')
        .map((b: { tool_use_id: string; content: unknown }) => [b.tool_use_id, JSON.stringify(b.content)]);
      expect(results.map((r: string[]) => r[0])).toEqual(['toolu_test', 'toolu_rm']);
      expect(results[0][1]).not.toContain('Permission denied');
      expect(results[1][1]).toContain(
        'Permission denied: opencode -p was run with --no-auto-approve and this call needs approval',
      );
    },
  },
  {
    page: 'troubleshooting.md',
    check: (run) => expect(run.stdout).toMatch(/^\d+\.\d \d+ start\.cjs\n/),
  },
];

/** Pages whose opening example is not run here, and why. */
const NOT_RUN: Record<string, string> = {
  'tui.md': 'the TUI is interactive; the end-to-end tests in test/e2e/ drive it in tmux',
  'mcp.md':
    'npx fetches the filesystem server from the npm registry, and the tests run offline; the MCP tests run real servers of test/fixtures/',
};

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe('the opening example of each docs page', () => {
  it('every page is run here or named as not run, with the reason', () => {
    const pages = CASES.map((c) => c.page).concat(Object.keys(NOT_RUN));
    for (const page of pages) expect(existsSync(join(ROOT, 'docs', page)), page).toBe(true);
    const all = readFileSync(join(ROOT, 'README.md'), 'utf8')
      .match(/\]\(docs\/([\w-]+\.md)\)/g)!
      .map((l) => l.slice(7, -1));
    expect(all.filter((p) => !pages.includes(p))).toEqual([]);
  });

  it.each(CASES.map((c) => [c.page, c] as const))('docs/%s', async (page, c) => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-docs-example-'));
    c.setUp?.(dir);
    const extra: Record<string, string> = { PATH: `${join(ROOT, 'bin')}:${process.env.PATH}` };
    if (c.turns) {
      fake = await startFakeProvider(c.turns);
      Object.assign(extra, { ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.anthropicBaseURL });
    }
    const run = await runBash(openingExample(page), dir, cleanEnv(extra));
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    c.check(run, dir);
    if (fake) expect(fake.remaining()).toBe(0);
  });
});
