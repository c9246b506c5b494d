/** With the real pyright (a devDependency, offline): a write that introduces a type error in a Python file gets it appended. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LspService } from '../../src/lsp/service.js';
import { planServers } from '../../src/lsp/servers.js';
import { viewTool } from '../../src/tools/view.js';
import { writeTool } from '../../src/tools/write.js';
import { runTool, toolContext } from '../support/tool-context.js';

const dir = mkdtempSync(join(tmpdir(), 'opencode-lsp-py-'));
const file = join(dir, 'calc.py');
writeFileSync(file, 'def double(x: int) -> int:\n    return x * 2\n');
const plan = planServers(
  dir,
  {
    python: {
      command: join(import.meta.dirname, '..', '..', 'node_modules', '.bin', 'pyright-langserver'),
      diagnosticsTimeoutMs: 120_000,
    },
  },
  '',
);
const service = new LspService({ root: dir, servers: plan.servers, env: process.env, watch: false });
const ctx = { ...toolContext(dir), lsp: service };
afterAll(() => service.close());

describe('pyright', () => {
  it('appends the error a write introduced', { timeout: 300_000 }, async () => {
    await runTool(viewTool, { file_path: file }, ctx);
    const result = await runTool(
      writeTool,
      { file_path: file, content: 'def double(x: int) -> int:\n    return x * 2\n\n\nname: str = double(2)\n' },
      ctx,
    );
    expect(result.isError).toBe(false);
    expect(result.output).toMatch(
      new RegExp(
        `<file_diagnostics>\\nError: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:5:13 \\[Pyright\\]\\[reportAssignmentType\\] Type "int" is not assignable to declared type "str"`,
      ),
    );
    expect(result.output).toContain('Current file: 1 error, 0 warnings introduced by this change');
  });
});
