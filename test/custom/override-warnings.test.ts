/**
 * Overrides are said once per start, also the ones that appear after loading: an MCP
 * server that connects later with a tool a custom tool shadows.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentEvents } from '../../src/agent/events.js';
import { startCustomTools } from '../../src/custom/start.js';
import { configSchema } from '../../src/config/schema.js';
import { EventBus } from '../../src/events/bus.js';
import { builtinTools } from '../../src/tools/index.js';

describe('startCustomTools', () => {
  it('says each override once: at load, and when a shadowed MCP tool arrives later', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-overrides-'));
    mkdirSync(join(dir, '.opencode', 'tools'), { recursive: true });
    writeFileSync(
      join(dir, '.opencode', 'tools', 'tools.json'),
      JSON.stringify([
        { name: 'ls', description: 'Our ls.', command: ['ls'], readOnly: true },
        { name: 'docs_search', description: 'Our docs search.', command: ['true'], readOnly: true },
      ]),
    );
    const bus = new EventBus<AgentEvents>();
    const tools = builtinTools();
    const warnings: string[] = [];
    const written: string[] = [];
    bus.on('warning', ({ message }) => warnings.push(message));
    const app = { cwd: dir, config: configSchema.parse({}), tools, bus };
    await startCustomTools(app, { env: { HOME: join(dir, 'home') }, write: (line) => written.push(line) });
    expect(warnings).toEqual(['project tool ls (.opencode/tools/tools.json) overrides the built-in ls']);
    const mcpTool = { ...tools.get('ls')!, name: 'docs_search' };
    tools.register(mcpTool, 'mcp');
    tools.unregister('docs_search', 'mcp');
    tools.register(mcpTool, 'mcp');
    expect(warnings).toEqual([
      'project tool ls (.opencode/tools/tools.json) overrides the built-in ls',
      'project tool docs_search (.opencode/tools/tools.json) overrides the MCP tool docs_search',
    ]);
    expect(written).toEqual(warnings);
  });
});
