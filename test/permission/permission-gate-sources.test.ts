/**
 * The permission gate holds for every tool source: a rule keyed by a tool's name is applied in the one
 * execution path before the tool runs, whether or not the tool asks. Each source is real: a built-in
 * (view), an MCP tool of server-filesystem over stdio, a declarative tool file, a plugin file, and a
 * tool registered through the runtime API, all driven by the agent loop against the fake provider.
 *
 * Given a `deny` rule, a tool that never asks does not run (its file is not written) and the model is
 * told which rule refused it; an `ask` rule asks exactly once, also for a plugin tool that asks itself;
 * an `allow` rule asks nothing; with no rule each source behaves as before (reads run, a plugin's own
 * `ask` asks).
 */
import { existsSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpencode } from '../../src/api/index.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { cleanEnv } from '../support/cli.js';
import { FILESYSTEM_SERVER } from '../mcp/fixture.js';

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const denial = (tool: string) =>
  `Permission denied: ${tool} is denied by the permission rule ${tool} "*": "deny". ` +
  "This is the user's standing rule: do not try to get around it; do the task another way or ask the user.";

const PLUGIN = `import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
export default async ({ directory }) => ({
  tools: {
    plugin_mark: {
      description: 'Writes plugin.txt; never asks.',
      args: {},
      execute: async () => { writeFileSync(join(directory, 'plugin.txt'), 'x'); return 'plugin marked'; },
    },
    plugin_asking: {
      description: 'Asks, then writes plugin-asked.txt.',
      args: {},
      execute: async (_args, ctx) => {
        await ctx.ask({ description: 'mark the project', params: { file: 'plugin-asked.txt' } });
        writeFileSync(join(directory, 'plugin-asked.txt'), 'x');
        return 'plugin asked and marked';
      },
    },
  },
});
`;

/** server-filesystem's write_file of mcp.txt in the project */
const mcpWrite = (dir: string) => ({ path: join(dir, 'mcp.txt'), content: 'x' });

interface Scenario {
  /** the `permission` setting of the project */
  permission?: unknown;
  /** the one call the model makes */
  call: { name: string; input: Record<string, unknown> | ((dir: string) => Record<string, unknown>) };
  mcp?: boolean;
  /** another plugin file's text (its hooks see every call) */
  hooksPlugin?: string;
}

interface Outcome {
  dir: string;
  /** the tool result the model received, and whether it was an error */
  result: [string, boolean];
  /** the descriptions of the permission requests that reached the person */
  asked: string[];
}

/** Runs one scripted turn in a fresh project holding a plugin, a declarative tool and (with `mcp`) server-filesystem. */
async function run(scenario: Scenario): Promise<Outcome> {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'opencode-gate-')));
  writeFileSync(join(dir, 'secret.txt'), 'classified\n');
  mkdirSync(join(dir, '.opencode', 'plugins'), { recursive: true });
  mkdirSync(join(dir, '.opencode', 'tools'), { recursive: true });
  writeFileSync(join(dir, '.opencode', 'plugins', 'marks.mjs'), PLUGIN);
  if (scenario.hooksPlugin) writeFileSync(join(dir, '.opencode', 'plugins', 'hooks.mjs'), scenario.hooksPlugin);
  writeFileSync(
    join(dir, '.opencode', 'tools', 'decl_mark.yml'),
    'name: decl_mark\ndescription: Writes decl.txt.\ncommand: [touch, decl.txt]\nreadOnly: true\n',
  );
  const config: Record<string, unknown> = {};
  if (scenario.permission !== undefined) config.permission = scenario.permission;
  if (scenario.mcp) config.mcpServers = { fs: { command: process.execPath, args: [FILESYSTEM_SERVER, dir] } };
  writeFileSync(join(dir, '.opencode.json'), JSON.stringify(config, null, 2));

  const { name, input } = scenario.call;
  fake = await startFakeProvider([
    { toolCalls: [{ id: 'toolu_1', name, input: typeof input === 'function' ? input(dir) : input }] },
    { text: 'Done.' },
  ]);
  const env = cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.anthropicBaseURL });
  const asked: string[] = [];
  const opencode = await createOpencode({
    directory: dir,
    env,
    trust: true,
    permission: async (request) => {
      asked.push(request.description);
      return 'allow';
    },
  });
  try {
    opencode.tools.register({
      name: 'runtime_mark',
      description: 'Writes runtime.txt; never asks.',
      args: {},
      execute: async () => {
        writeFileSync(join(dir, 'runtime.txt'), 'x');
        return 'runtime marked';
      },
    });
    const ran = await opencode.run('s1', 'go');
    expect(ran.text).toBe('Done.');
  } finally {
    await opencode.close();
  }
  const last = (fake.answered[1].messages as { content: unknown }[]).at(-1)!;
  const block = (last.content as { type: string; content: unknown; is_error?: boolean }[]).find(
    (b) => b.type === 'tool_result',
  )!;
  const text =
    typeof block.content === 'string'
      ? block.content
      : (block.content as { text: string }[]).map((c) => c.text).join('');
  return { dir, result: [text, block.is_error === true], asked };
}

describe('a deny rule stops a tool that never asks, for every source', () => {
  it.each([
    ['built-in view', 'view', { file_path: 'secret.txt' }, undefined],
    ['declarative decl_mark', 'decl_mark', {}, 'decl.txt'],
    ['plugin plugin_mark', 'plugin_mark', {}, 'plugin.txt'],
    ['runtime runtime_mark', 'runtime_mark', {}, 'runtime.txt'],
  ])('%s: refused before it runs, with the rule named', async (_label, name, input, marker) => {
    const out = await run({ permission: { [name]: 'deny' }, call: { name, input } });
    expect(out.result).toEqual([denial(name), true]);
    expect(out.asked).toEqual([]);
    if (marker) expect(existsSync(join(out.dir, marker))).toBe(false);
  });

  it('MCP fs_write_file (server-filesystem over stdio): refused before the server is called; the file is not written', async () => {
    const out = await run({
      mcp: true,
      permission: { fs_write_file: 'deny' },
      call: { name: 'fs_write_file', input: mcpWrite },
    });
    expect(out.result).toEqual([denial('fs_write_file'), true]);
    expect(out.asked).toEqual([]);
    expect(existsSync(join(out.dir, 'mcp.txt'))).toBe(false);
  });

  it('a wildcard deny after an allow for another tool stops a plugin tool; the rule is named as written', async () => {
    const out = await run({
      permission: { view: 'allow', 'plugin_*': 'deny' },
      call: { name: 'plugin_mark', input: {} },
    });
    expect(out.result).toEqual([
      'Permission denied: plugin_mark is denied by the permission rule plugin_* "*": "deny". ' +
        "This is the user's standing rule: do not try to get around it; do the task another way or ask the user.",
      true,
    ]);
    expect(existsSync(join(out.dir, 'plugin.txt'))).toBe(false);
  });
});

describe('an ask rule asks once before a tool that never asks; no tool is asked twice', () => {
  it.each([
    ['view', { file_path: 'secret.txt' }, 'classified', undefined],
    ['decl_mark', {}, 'no output', 'decl.txt'],
    ['plugin_mark', {}, 'plugin marked', 'plugin.txt'],
    ['runtime_mark', {}, 'runtime marked', 'runtime.txt'],
  ])('%s: one request, then it runs', async (name, input, output, marker) => {
    const out = await run({ permission: { [name]: 'ask' }, call: { name, input } });
    expect(out.asked).toEqual([`execute ${name} with the following parameters: ${JSON.stringify(input)}`]);
    expect(out.result[1]).toBe(false);
    expect(out.result[0]).toContain(output);
    if (marker) expect(existsSync(join(out.dir, marker))).toBe(true);
  });

  it('a plugin tool that asks itself is asked once: the gate asks, its own ask is answered by that', async () => {
    const out = await run({ permission: { plugin_asking: 'ask' }, call: { name: 'plugin_asking', input: {} } });
    expect(out.asked).toEqual(['execute plugin_asking with the following parameters: {}']);
    expect(out.result).toEqual(['plugin asked and marked', false]);
  });

  it('an MCP tool asks once, by its own request', async () => {
    const out = await run({
      mcp: true,
      permission: { fs_write_file: 'ask' },
      call: { name: 'fs_write_file', input: mcpWrite },
    });
    expect(out.asked).toHaveLength(1);
    expect(out.asked[0]).toMatch(/^execute fs_write_file with the following parameters: /);
    expect(existsSync(join(out.dir, 'mcp.txt'))).toBe(true);
  });
});

describe('allow rules and no rule', () => {
  it('an allow rule asks nothing, also for a plugin tool that asks itself', async () => {
    const out = await run({ permission: { plugin_asking: 'allow' }, call: { name: 'plugin_asking', input: {} } });
    expect(out.asked).toEqual([]);
    expect(out.result).toEqual(['plugin asked and marked', false]);
  });

  it('an allow rule for an MCP tool asks nothing', async () => {
    const out = await run({
      mcp: true,
      permission: { fs_write_file: 'allow' },
      call: { name: 'fs_write_file', input: mcpWrite },
    });
    expect(out.asked).toEqual([]);
    expect(existsSync(join(out.dir, 'mcp.txt'))).toBe(true);
  });

  it("with no rule a plugin's own ask asks once, and a tool that never asks runs unasked", async () => {
    const asking = await run({ call: { name: 'plugin_asking', input: {} } });
    expect(asking.asked).toEqual(['mark the project']);
    const silent = await run({ call: { name: 'runtime_mark', input: {} } });
    expect(silent.asked).toEqual([]);
    expect(silent.result).toEqual(['runtime marked', false]);
  });
});

describe("plugins' permission.ask hooks answer the gate's question", () => {
  const HOOKS = `export default async () => ({ hooks: { 'permission.ask': async (request) => (request.tool === 'runtime_mark' ? 'deny' : 'allow') } });\n`;

  it("a hook's deny refuses the call the gate asks about; the tool does not run", async () => {
    const out = await run({
      permission: { runtime_mark: 'ask' },
      hooksPlugin: HOOKS,
      call: { name: 'runtime_mark', input: {} },
    });
    expect(out.result).toEqual([
      'Permission denied by a plugin: execute runtime_mark with the following parameters: {}',
      true,
    ]);
    expect(out.asked).toEqual([]);
    expect(existsSync(join(out.dir, 'runtime.txt'))).toBe(false);
  });

  it("a hook's allow answers in the person's place; a deny rule still holds before any hook", async () => {
    const allowed = await run({
      permission: { plugin_mark: 'ask' },
      hooksPlugin: HOOKS,
      call: { name: 'plugin_mark', input: {} },
    });
    expect(allowed.result).toEqual(['plugin marked', false]);
    const denied = await run({
      permission: { plugin_mark: 'deny' },
      hooksPlugin: HOOKS,
      call: { name: 'plugin_mark', input: {} },
    });
    expect(denied.result).toEqual([denial('plugin_mark'), true]);
    expect(existsSync(join(denied.dir, 'plugin.txt'))).toBe(false);
  });
});
