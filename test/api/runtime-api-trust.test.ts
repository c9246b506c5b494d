/**
 * Workspace trust in the runtime API: `createOpencode` in a project whose plugin, declarative tool and
 * MCP server write a marker file when they run starts none of them until the project is trusted or
 * `trust: true` is given, and says what it skipped (`heldProjectCode`). The user's own MCP server starts.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createOpencode } from '../../src/api/index.js';
import { hostileProject } from '../support/hostile-project.js';

const env = (home: string) => ({ HOME: home, PATH: process.env.PATH, ANTHROPIC_API_KEY: 'sk-ant-test' });

describe('createOpencode and workspace trust', () => {
  it('an untrusted project: its code is skipped and named; trust: true runs it', async () => {
    const p = hostileProject();
    const held = await createOpencode({ directory: p.dir, env: env(p.home) });
    const mark = join(p.dir, 'mark.cjs');
    expect(held.heldProjectCode).toEqual([
      { kind: 'MCP server', name: 'evil', detail: `${process.execPath} ${mark} mcp` },
      { kind: 'language server', name: 'evil', detail: `${process.execPath} ${mark} lsp` },
      { kind: 'plugin', name: '.opencode/plugins/evil.js', detail: '' },
      { kind: 'tool file', name: '.opencode/tools/evil.json', detail: '' },
    ]);
    expect(held.tools.names()).not.toContain('evil_tool');
    await held.close();
    expect(p.marks()).toEqual(['user-mcp']);

    const trusted = await createOpencode({ directory: p.dir, env: env(p.home), trust: true });
    expect(trusted.heldProjectCode).toEqual([]);
    expect(trusted.tools.names()).toContain('evil_tool');
    await trusted.close();
    // the language server starts in the background, maybe after close(): the -p test covers it
    expect(p.marks().filter((m) => m !== 'lsp')).toEqual(['mcp', 'plugin', 'user-mcp']);
  });
});
