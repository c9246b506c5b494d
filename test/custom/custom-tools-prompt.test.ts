/**
 * Custom tools end to end through `bin/opencode -p` with the fake provider: the scripted
 * model calls a declarative tool whose script queries a (loopback) monitoring API, a TypeScript
 * plugin's tool, and a tool the README's plugin blocks; precedence and the override warning on stderr;
 * `"tools": { "x": false }`; every hook of the plugin API fired; plugins that throw at load or in a hook.
 */
import Database from 'better-sqlite3';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { cleanEnv, runCli } from '../support/cli.js';

const EXAMPLES = join(import.meta.dirname, '..', '..', 'examples');

/** The call log's (tool, outcome) pairs of the project's database, sorted (calls of one step run side by side). */
function loggedOutcomes(dir: string): [string, string][] {
  const db = new Database(join(dir, '.opencode', 'opencode.db'), { readonly: true });
  try {
    const rows = db.prepare('SELECT tool, outcome FROM tool_calls').all() as { tool: string; outcome: string }[];
    return rows
      .map((row): [string, string] => [row.tool, row.outcome])
      .sort((a, b) => a.join(' ').localeCompare(b.join(' ')));
  } finally {
    db.close();
  }
}

let fake: FakeProvider | undefined;
let monitor: http.Server | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  await new Promise((r) => (monitor ? monitor.close(r) : r(undefined)));
  monitor = undefined;
});

const project = () => mkdtempSync(join(tmpdir(), 'opencode-custom-'));
const env = (f: FakeProvider, extra: Record<string, string> = {}) =>
  cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: f.anthropicBaseURL, ...extra });

/** The tool_result blocks of request `n`, as [text, is_error]. */
function toolResultsSent(f: FakeProvider, n: number): [string, boolean][] {
  const last = (f.answered[n].messages as { content: unknown }[]).at(-1)!;
  return (last.content as { type: string; content: unknown; is_error?: boolean }[])
    .filter((b) => b.type === 'tool_result')
    .map((b) => [
      typeof b.content === 'string' ? b.content : (b.content as { text: string }[]).map((c) => c.text).join(''),
      b.is_error === true,
    ]);
}

const toolNames = (f: FakeProvider, n: number): string[] =>
  (f.answered[n].tools as { name: string }[]).map((t) => t.name);

function write(path: string, text: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
}

describe('a declarative tool (the README example)', () => {
  it('is offered from the first request; its script gets the arguments and its JSON output comes back pretty-printed', async () => {
    const seen: string[] = [];
    monitor = http.createServer((req, res) => {
      seen.push(req.url!);
      res.setHeader('content-type', 'application/json');
      res.end('{"service":"checkout","state":"degraded","errorRate":0.031}');
    });
    await new Promise<void>((r) => monitor!.listen(0, '127.0.0.1', r));
    const monitorUrl = `http://127.0.0.1:${(monitor.address() as AddressInfo).port}`;
    const dir = project();
    cpSync(join(EXAMPLES, 'custom-tools', '.opencode'), join(dir, '.opencode'), { recursive: true });
    fake = await startFakeProvider([
      { toolCalls: [{ name: 'query_service_status', input: { service: 'checkout & co', verbose: true } }] },
      { text: 'Checkout is degraded.' },
    ]);
    const run = await runCli(['--trust', '-p', 'is checkout up?'], {
      cwd: dir,
      env: env(fake, { MONITOR_URL: monitorUrl }),
    });
    expect(run).toMatchObject({ code: 0, stdout: 'Checkout is degraded.\n', stderr: '' });
    const offered = (fake.answered[0].tools as { name: string; input_schema: unknown }[]).find(
      (t) => t.name === 'query_service_status',
    );
    expect(offered?.input_schema).toEqual({
      type: 'object',
      properties: {
        service: {
          type: 'string',
          description: 'The service name as the monitoring API knows it, e.g. "checkout" or "search".',
        },
        verbose: { type: 'boolean', description: 'Include the last five incidents.' },
      },
      required: ['service'],
    });
    expect(seen).toEqual(['/api/v2/status?service=checkout+%26+co&incidents=5']);
    expect(toolResultsSent(fake, 1)).toEqual([
      ['{\n  "service": "checkout",\n  "state": "degraded",\n  "errorRate": 0.031\n}', false],
    ]);
  });
});

const AUDIT_PLUGIN = `
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { tool, definePlugin, z } from 'opencode/plugin';

export default definePlugin(async ({ directory, worktree, config, log }) => {
  const note = (line) => appendFileSync(join(directory, 'hooks.log'), line + '\\n');
  note('loaded in ' + (directory === worktree ? 'its own worktree' : worktree) + ' with debug ' + config.debug);
  return {
    tools: {
      word_count: tool({
        description: 'Counts the words of a text.',
        args: z.object({ text: z.string().describe('the text') }),
        execute: async ({ text }, ctx) => {
          await ctx.ask({ description: 'count words of ' + text, params: { text } });
          return String(text.split(/\\s+/).filter(Boolean).length) + ' words in ' + JSON.stringify(text) + ' (call ' + ctx.callId + ')';
        },
      }),
    },
    hooks: {
      'tool.execute.before': async (call) => {
        note('before ' + call.tool + ' ' + JSON.stringify(call.args));
        if (call.tool === 'word_count') return { args: { text: call.args.text + ' plus two' } };
      },
      'tool.execute.after': async (call, result) => {
        note('after ' + call.tool);
        return { output: result.output + ' [audited]' };
      },
      'permission.ask': async (request) => {
        note('permission ' + request.tool + ': ' + request.description);
        return request.tool === 'word_count' ? 'allow' : 'ask';
      },
      event: (event) => {
        if (event.type === 'run.finished') note('event run.finished ' + event.properties.reason);
      },
    },
  };
});
`;

describe('a TypeScript plugin', () => {
  it('adds a tool, and every hook it declares fires: before rewrites, permission.ask answers, after rewrites, event sees the bus', async () => {
    const dir = project();
    write(join(dir, '.opencode', 'plugins', 'audit.ts'), AUDIT_PLUGIN);
    fake = await startFakeProvider([
      { toolCalls: [{ id: 'toolu_wc', name: 'word_count', input: { text: 'one two three' } }] },
      { text: 'Five words.' },
    ]);
    // the person's side of permission.ask (no dialog shown) is tested in custom-tools-tui.test.tsx
    const run = await runCli(['--trust', '-p', 'count'], { cwd: dir, env: env(fake) });
    expect(run).toMatchObject({ code: 0, stdout: 'Five words.\n', stderr: '' });
    expect(toolNames(fake, 0)).toContain('word_count');
    expect(toolResultsSent(fake, 1)).toEqual([
      ['5 words in "one two three plus two" (call toolu_wc) [audited]', false],
    ]);
    expect(readFileSync(join(dir, 'hooks.log'), 'utf8').split('\n')).toEqual([
      'loaded in its own worktree with debug false',
      'before word_count {"text":"one two three"}',
      'permission word_count: count words of one two three plus two',
      'after word_count',
      'event run.finished end_turn',
      '',
    ]);
  });

  it('the README plugin blocks reading .env with the reason the model sees; other files still read', async () => {
    const dir = project();
    cpSync(join(EXAMPLES, 'custom-tools', '.opencode', 'plugins'), join(dir, '.opencode', 'plugins'), {
      recursive: true,
    });
    writeFileSync(join(dir, '.env'), 'SECRET=1\n');
    writeFileSync(join(dir, 'notes.txt'), 'hello\n');
    const patchEnv = '*** Begin Patch\n*** Update File: .env\n@@\n-SECRET=1\n+SECRET=2\n*** End Patch';
    fake = await startFakeProvider([
      {
        toolCalls: [
          { name: 'view', input: { file_path: join(dir, '.env') } },
          { name: 'view', input: { file_path: join(dir, 'notes.txt') } },
          { name: 'patch', input: { patch_text: patchEnv } },
        ],
      },
      { text: 'ok' },
    ]);
    const run = await runCli(['--trust', '-p', 'read the env'], { cwd: dir, env: env(fake) });
    expect(run).toMatchObject({ code: 0, stdout: 'ok\n', stderr: '' });
    const results = toolResultsSent(fake, 1);
    expect(results[0]).toEqual([
      `${join(dir, '.env')} holds secrets: .env files are not read or changed here. Ask the person for the value you need.`,
      true,
    ]);
    expect(results[1]![1]).toBe(false);
    expect(results[1]![0]).toContain('hello');
    // a patch names its files in its headers: the plugin finds .env there too, and the file is unchanged
    expect(results[2]).toEqual([
      '.env holds secrets: .env files are not read or changed here. Ask the person for the value you need.',
      true,
    ]);
    expect(readFileSync(join(dir, '.env'), 'utf8')).toBe('SECRET=1\n');
    // a plugin's refusal is logged as a refusal, not as the tool's error
    expect(loggedOutcomes(dir)).toEqual([
      ['patch', 'permission'],
      ['view', 'ok'],
      ['view', 'permission'],
    ]);
  });

  it('one that throws at load and one whose hook throws: one line each, the rest still loads and runs', async () => {
    const dir = project();
    write(
      join(dir, '.opencode', 'plugins', 'broken.ts'),
      "throw new Error('missing MONITOR_TOKEN');\nexport default async () => ({});\n",
    );
    write(
      join(dir, '.opencode', 'plugins', 'flaky.mjs'),
      "export default async () => ({ hooks: { 'tool.execute.after': async () => { throw new Error('audit db down'); } } });\n",
    );
    write(
      join(dir, '.opencode', 'plugins', 'guard.mjs'),
      "export default async () => ({ hooks: { 'tool.execute.before': async (call) => { if (call.tool === 'glob') throw new Error('guard crashed'); } } });\n",
    );
    write(
      join(dir, '.opencode', 'tools', 'hello.json'),
      JSON.stringify({ name: 'hello', description: 'Says hello.', command: ['echo', 'hello'] }),
    );
    fake = await startFakeProvider([
      {
        toolCalls: [
          { name: 'hello', input: {} },
          { name: 'glob', input: { pattern: '*' } },
        ],
      },
      { text: 'done' },
    ]);
    const run = await runCli(['--trust', '-p', 'hi'], { cwd: dir, env: env(fake) });
    expect(run.code).toBe(0);
    expect(run.stderr.split('\n')).toEqual([
      'opencode: warning: .opencode/plugins/broken.ts: failed at load: missing MONITOR_TOKEN',
      'opencode: warning: .opencode/plugins/flaky.mjs: tool.execute.after hook failed: audit db down',
      'opencode: warning: .opencode/plugins/guard.mjs: tool.execute.before hook failed: guard crashed',
      '',
    ]);
    expect(toolResultsSent(fake, 1)).toEqual([
      ['hello', false],
      ['Blocked: .opencode/plugins/guard.mjs: tool.execute.before hook failed: guard crashed', true],
    ]);
    // a hook that threw is the plugin's error, not a refusal
    expect(loggedOutcomes(dir)).toEqual([
      ['glob', 'error'],
      ['hello', 'ok'],
    ]);
  });
});

describe('precedence', () => {
  it('project over user over built-in, each override one warning on stderr; the winner runs', async () => {
    const dir = project();
    const home = mkdtempSync(join(tmpdir(), 'opencode-home-'));
    const grep = (from: string) =>
      JSON.stringify({
        name: 'grep',
        description: `grep of the ${from}`,
        command: ['echo', `${from} grep`],
        readOnly: true,
      });
    write(join(home, '.config', 'opencode', 'tools', 'grep.json'), grep('user'));
    write(join(dir, '.opencode', 'tools', 'grep.json'), grep('project'));
    fake = await startFakeProvider([{ toolCalls: [{ name: 'grep', input: {} }] }, { text: 'done' }]);
    const run = await runCli(['--trust', '-p', 'search'], { cwd: dir, env: { ...env(fake), HOME: home } });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe(
      'opencode: warning: project tool grep (.opencode/tools/grep.json) overrides the user tool grep (~/.config/opencode/tools/grep.json)\n' +
        'opencode: warning: project tool grep (.opencode/tools/grep.json) overrides the built-in grep\n',
    );
    expect(toolResultsSent(fake, 1)).toEqual([['project grep', false]]);
    expect(
      (fake.answered[0].tools as { name: string; description: string }[]).filter((t) => t.name === 'grep'),
    ).toMatchObject([{ description: 'grep of the project' }]);
  });

  it('"tools": { "ls": false } turns a built-in off: not offered, and a call is told it does not exist', async () => {
    const dir = project();
    writeFileSync(join(dir, '.opencode.json'), JSON.stringify({ tools: { ls: false } }));
    fake = await startFakeProvider([{ toolCalls: [{ name: 'ls', input: {} }] }, { text: 'done' }]);
    const run = await runCli(['--trust', '-p', 'list'], { cwd: dir, env: env(fake) });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(toolNames(fake, 0)).toEqual([
      'agent',
      'bash',
      'edit',
      'fetch',
      'glob',
      'grep',
      'patch',
      'sourcegraph',
      'view',
      'write',
    ]);
    expect(toolResultsSent(fake, 1)[0]![0]).toBe(
      'Tool not found: ls. Available tools: agent, bash, edit, fetch, glob, grep, patch, sourcegraph, view, write',
    );
  });
});
