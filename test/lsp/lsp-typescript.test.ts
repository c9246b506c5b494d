/**
 * With the real typescript-language-server (a devDependency, offline): an edit that introduces a type
 * error gets it appended with the right line and column; fixing it clears it; in a folder whose path
 * has spaces and non-ASCII characters. The tools reach the service through ctx.lsp, as in the app.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LspService } from '../../src/lsp/service.js';
import { planServers } from '../../src/lsp/servers.js';
import { diagnosticsTool } from '../../src/tools/diagnostics.js';
import { editTool } from '../../src/tools/edit.js';
import { viewTool } from '../../src/tools/view.js';
import { runTool, toolContext } from '../support/tool-context.js';

const BIN = join(import.meta.dirname, '..', '..', 'node_modules', '.bin');
const dir = join(mkdtempSync(join(tmpdir(), 'opencode-lsp-ts-')), 'my app é');
mkdirSync(dir);
writeFileSync(
  join(dir, 'tsconfig.json'),
  JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: 'es2022' } }),
);
const file = join(dir, 'main ü.ts');
writeFileSync(
  file,
  'export function total(prices: number[]): number {\n  return prices.reduce((a, b) => a + b, 0);\n}\n',
);
// a slow machine can take tens of seconds to start tsserver cold; the wait is a limit, not the expected time
const plan = planServers(
  dir,
  { typescript: { command: join(BIN, 'typescript-language-server'), diagnosticsTimeoutMs: 120_000 } },
  '',
);
const service = new LspService({ root: dir, servers: plan.servers, env: process.env, watch: false });
const ctx = { ...toolContext(dir), lsp: service };
afterAll(() => service.close());

describe('typescript-language-server', () => {
  it(
    'appends the type error an edit introduced, with its line and column, and nothing once it is fixed',
    { timeout: 300_000 },
    async () => {
      expect((await runTool(viewTool, { file_path: file }, ctx)).isError).toBe(false);
      const broken = await runTool(
        editTool,
        {
          file_path: file,
          old_string: '  return prices.reduce((a, b) => a + b, 0);',
          new_string: '  const label: string = prices.length;\n  return prices.reduce((a, b) => a + b, 0);',
        },
        ctx,
      );
      expect(broken.isError).toBe(false);
      expect(broken.output).toContain(
        `<file_diagnostics>\nError: ${file}:2:9 [typescript][2322] Type 'number' is not assignable to type 'string'.\n</file_diagnostics>\n` +
          '<diagnostic_summary>\nCurrent file: 1 error, 0 warnings introduced by this change\n</diagnostic_summary>\n',
      );
      expect(service.counts()).toEqual({ errors: 1, warnings: 0 });
      const fixed = await runTool(
        editTool,
        { file_path: file, old_string: '  const label: string = prices.length;\n', new_string: '' },
        ctx,
      );
      expect(fixed.isError).toBe(false);
      expect(fixed.output).not.toContain('diagnostic');
      expect(service.counts()).toEqual({ errors: 0, warnings: 0 });
    },
  );

  it('the diagnostics tool reports a file it is asked about', { timeout: 300_000 }, async () => {
    const other = join(dir, 'other.ts');
    writeFileSync(other, 'import { total } from "./main ü.js";\nexport const t: string = total([1]);\n');
    const result = await runTool(diagnosticsTool, { file_path: other }, ctx);
    expect(result.output).toBe(
      `<file_diagnostics>\nError: ${other}:2:14 [typescript][2322] Type 'number' is not assignable to type 'string'.\n</file_diagnostics>\n` +
        '<diagnostic_summary>\nCurrent file: 1 error, 0 warnings\nProject: 1 error, 0 warnings\n</diagnostic_summary>\n',
    );
  });
});
