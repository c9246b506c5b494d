/**
 * With the real typescript-language-server: the first edit of a session, made right after the app
 * started its servers, gets the type error it introduced. The edit waits for tsserver's initial
 * project load (its first report) rather than the 5 s diagnostics timeout counted from the edit, which
 * a cold tsserver loading the project used to exceed every time.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LspService } from '../../src/lsp/service.js';
import { DEFAULT_DIAGNOSTICS_TIMEOUT_MS, planServers } from '../../src/lsp/servers.js';
import { editTool } from '../../src/tools/edit.js';
import { viewTool } from '../../src/tools/view.js';
import { runTool, toolContext } from '../support/tool-context.js';

const BIN = join(import.meta.dirname, '..', '..', 'node_modules', '.bin');
const dir = mkdtempSync(join(tmpdir(), 'opencode-lsp-first-'));
writeFileSync(
  join(dir, 'tsconfig.json'),
  JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: 'es2022' } }),
);
writeFileSync(
  join(dir, 'util.ts'),
  'export function total(prices: number[]): number {\n  return prices.reduce((a, b) => a + b, 0);\n}\n',
);
const file = join(dir, 'main.ts');
writeFileSync(file, "import { total } from './util.js';\nexport const sum = total([1, 2]);\n");
// the start timeout bounds the wait for the initial load; a slow machine may need tens of seconds cold
const plan = planServers(
  dir,
  { typescript: { command: join(BIN, 'typescript-language-server'), startTimeoutMs: 120_000 } },
  '',
);
const service = new LspService({ root: dir, servers: plan.servers, env: process.env, watch: false });
const ctx = { ...toolContext(dir), lsp: service };
afterAll(() => service.close());

describe('the first edit of a session with typescript-language-server', () => {
  it('gets the error it introduced, with the default diagnostics timeout', { timeout: 300_000 }, async () => {
    expect(plan.servers[0]!.diagnosticsTimeoutMs).toBe(DEFAULT_DIAGNOSTICS_TIMEOUT_MS);
    service.startEarly();
    expect((await runTool(viewTool, { file_path: file }, ctx)).isError).toBe(false);
    const result = await runTool(
      editTool,
      {
        file_path: file,
        old_string: 'export const sum = total([1, 2]);',
        new_string: 'export const sum: string = total([1, 2]);',
      },
      ctx,
    );
    expect(result.isError).toBe(false);
    expect(result.output).toContain(
      `<file_diagnostics>\nError: ${file}:2:14 [typescript][2322] Type 'number' is not assignable to type 'string'.\n</file_diagnostics>\n` +
        '<diagnostic_summary>\nCurrent file: 1 error, 0 warnings introduced by this change\n</diagnostic_summary>\n',
    );
  });
});
