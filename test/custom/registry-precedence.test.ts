/**
 * The registry's precedence: runtime > project > user > MCP > built-in, as a table; the
 * override lines; names turned off; the sub-agent's subset sharing the plugins' hooks.
 */
import { describe, expect, it } from 'vitest';
import { overrideWarnings, ToolRegistry, type ToolCallHooks, type ToolSource } from '../../src/tools/registry.js';
import type { Tool } from '../../src/tools/tool.js';

const tool = (name: string, from: string): Tool => ({
  name,
  description: from,
  inputSchema: { type: 'object', properties: {} },
  readOnly: true,
  run: async () => ({ output: from, isError: false }),
});

describe('ToolRegistry precedence', () => {
  it.each<[ToolSource[], ToolSource]>([
    // registered (in this order) → the one offered
    [['builtin', 'mcp'], 'mcp'],
    [['mcp', 'builtin'], 'mcp'],
    [['builtin', 'user'], 'user'],
    [['project', 'user', 'builtin'], 'project'],
    [['runtime', 'project'], 'runtime'],
    [['builtin', 'mcp', 'user', 'project', 'runtime'], 'runtime'],
  ])('%j → %s', (sources, winner) => {
    const registry = new ToolRegistry();
    for (const source of sources) registry.register(tool('grep', source), source);
    expect(registry.get('grep')!.description).toBe(winner);
  });

  it('names every override once, with the files', () => {
    const registry = new ToolRegistry();
    registry.register(tool('grep', 'builtin'), 'builtin');
    registry.register(tool('grep', 'project'), 'project', '.opencode/tools/grep.yaml');
    registry.register(tool('files_read', 'mcp'), 'mcp');
    registry.register(tool('files_read', 'user'), 'user', '~/.config/opencode/plugins/files.ts');
    registry.register(tool('status', 'runtime'), 'runtime', 'createOpencode');
    expect(overrideWarnings(registry)).toEqual([
      'user tool files_read (~/.config/opencode/plugins/files.ts) overrides the MCP tool files_read',
      'project tool grep (.opencode/tools/grep.yaml) overrides the built-in grep',
    ]);
  });

  it('a name turned off is neither offered nor found, and its overrides are not reported', () => {
    const registry = new ToolRegistry();
    registry.register(tool('grep', 'builtin'), 'builtin');
    registry.register(tool('grep', 'project'), 'project', 'g.yaml');
    registry.register(tool('ls', 'builtin'), 'builtin');
    registry.disable(['grep']);
    expect(registry.list().map((t) => t.name)).toEqual(['ls']);
    expect(registry.get('grep')).toBeUndefined();
    expect(overrideWarnings(registry)).toEqual([]);
  });

  it('a subset (the task agent) sees the hooks installed later on the full registry', () => {
    const registry = new ToolRegistry();
    registry.register(tool('grep', 'builtin'));
    const sub = registry.subset(['grep']);
    const hooks = {} as ToolCallHooks;
    registry.hooks = hooks;
    expect(sub.hooks).toBe(hooks);
  });
});

describe('runWithHooks', () => {
  it('a hook that never settles is left behind when the run is cancelled', async () => {
    const { runWithHooks } = await import('../../src/tools/registry.js');
    const { resultFromError } = await import('../../src/tools/tool.js');
    const { toolContext } = await import('../support/tool-context.js');
    const hooks: ToolCallHooks = {
      before: () => new Promise(() => {}),
      after: async (_call, result) => result.output,
      permission: async () => 'ask',
    };
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const outcome = await runWithHooks(
      tool('ls', 'builtin'),
      {},
      toolContext('/tmp', { signal: controller.signal }),
      hooks,
    ).catch(resultFromError);
    expect(outcome).toEqual({ output: 'Tool execution canceled by user', isError: true });
  });
});
