/**
 * The registry as one session sees it (`forSession`): without a filter the registry itself; with one,
 * only the registrations it lets through, a filtered-out winner falling back to the next source, with
 * the disabled names and the hooks of the whole registry.
 */
import { describe, expect, it } from 'vitest';
import { ToolRegistry, type ToolCallHooks, type ToolSource } from '../../src/tools/registry.js';
import type { Tool } from '../../src/tools/tool.js';

const tool = (name: string, from: string): Tool => ({
  name,
  description: from,
  inputSchema: { type: 'object', properties: {} },
  readOnly: true,
  run: async () => ({ output: from, isError: false }),
});

function registry(entries: [string, ToolSource][]): ToolRegistry {
  const r = new ToolRegistry();
  for (const [name, source] of entries) r.register(tool(name, `${source} ${name}`), source);
  return r;
}

describe('ToolRegistry.forSession', () => {
  it('is the registry itself when no filter is set', () => {
    const r = registry([['view', 'builtin']]);
    expect(r.forSession('s1')).toBe(r);
  });

  it('offers each session only what the filter lets through; a hidden winner falls back to the next source', () => {
    const r = registry([
      ['view', 'builtin'],
      ['editor_echo', 'mcp'],
      ['grep', 'builtin'],
      ['grep', 'mcp'],
    ]);
    // MCP tools for session "a" only
    r.setSessionFilter((entry, _name, sessionId) => entry.source !== 'mcp' || sessionId === 'a');
    const a = r.forSession('a');
    const b = r.forSession('b');
    expect(a.list().map((t) => t.description)).toEqual(['mcp editor_echo', 'mcp grep', 'builtin view']);
    expect(b.list().map((t) => t.description)).toEqual(['builtin grep', 'builtin view']);
    expect(b.get('editor_echo')).toBeUndefined();
    expect(b.schemas().map((s) => s.name)).toEqual(['grep', 'view']);
    // the filter goes: every session sees everything again
    r.setSessionFilter(undefined);
    expect(r.forSession('b')).toBe(r);
  });

  it('keeps the disabled names and reads the hooks of the whole registry', () => {
    const r = registry([
      ['view', 'builtin'],
      ['ls', 'builtin'],
    ]);
    r.disable(['ls']);
    r.setSessionFilter(() => true);
    const view = r.forSession('s1');
    const hooks = {} as ToolCallHooks;
    r.hooks = hooks;
    expect(view.list().map((t) => t.name)).toEqual(['view']);
    expect(view.get('ls')).toBeUndefined();
    expect(view.hooks).toBe(hooks);
  });
});
