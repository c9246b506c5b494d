/**
 * The `diagnostics` tool: a call made while its server is still starting waits for it and reports;
 * without a file it reports what the servers know; with no service it is an error (the app does not
 * offer it then).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LspService } from '../../src/lsp/service.js';
import { diagnosticsTool } from '../../src/tools/diagnostics.js';
import { runTool, toolContext } from '../support/tool-context.js';
import { fakePlan, tempProject } from '../lsp/fake-server.js';

let service: LspService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

describe('diagnostics tool', () => {
  it('called while the server is still starting: waits for it, then reports the file and the summary', async () => {
    const { dir, logFile } = tempProject();
    service = new LspService({ root: dir, servers: [fakePlan('normal', logFile)], env: process.env, watch: false });
    const file = join(dir, 'a.fk');
    writeFileSync(file, 'ok\nWARN: unused thing\nERROR: broken thing\n');
    service.viewed(join(dir, 'other.fk'), 'ok\n');
    expect(service.statuses()[0]!.state).toBe('starting');
    const ctx = { ...toolContext(dir), lsp: service };
    const result = await runTool(diagnosticsTool, { file_path: 'a.fk' }, ctx);
    expect(result).toEqual({
      output:
        `<file_diagnostics>\nError: ${file}:3:1 [fake][E1] broken thing\nWarn: ${file}:2:1 [fake][W1] unused thing\n</file_diagnostics>\n` +
        '<diagnostic_summary>\nCurrent file: 1 error, 1 warning\nProject: 1 error, 1 warning\n</diagnostic_summary>\n',
      isError: false,
      metadata: { errors: 1, warnings: 1 },
    });
    const all = await runTool(diagnosticsTool, {}, ctx);
    expect(all.output).toBe(
      `<project_diagnostics>\nError: ${file}:3:1 [fake][E1] broken thing\nWarn: ${file}:2:1 [fake][W1] unused thing\n</project_diagnostics>\n` +
        '<diagnostic_summary>\nProject: 1 error, 1 warning\n</diagnostic_summary>\n',
    );
  });

  it('a clean file says so', async () => {
    const { dir, logFile } = tempProject();
    service = new LspService({ root: dir, servers: [fakePlan('normal', logFile)], env: process.env, watch: false });
    writeFileSync(join(dir, 'ok.fk'), 'fine\n');
    const result = await runTool(
      diagnosticsTool,
      { file_path: join(dir, 'ok.fk') },
      { ...toolContext(dir), lsp: service },
    );
    expect(result.output).toBe(`No errors or warnings in ${join(dir, 'ok.fk')}.\n`);
  });

  it('without language servers it is an error', async () => {
    const { dir } = tempProject();
    const result = await runTool(diagnosticsTool, {}, toolContext(dir));
    expect(result).toMatchObject({
      isError: true,
      output: 'No language server is configured or installed for this project.',
    });
  });
});

describe('diagnostics after a patch', () => {
  it('appends the new problems of every file the patch changed; a deleted file is closed', async () => {
    const { patchTool } = await import('../../src/tools/patch.js');
    const { viewTool } = await import('../../src/tools/view.js');
    const { dir, logFile } = tempProject();
    service = new LspService({ root: dir, servers: [fakePlan('normal', logFile)], env: process.env, watch: false });
    const ctx = { ...toolContext(dir), lsp: service };
    writeFileSync(join(dir, 'old.fk'), 'ERROR: old\n');
    await runTool(viewTool, { file_path: join(dir, 'old.fk') }, ctx);
    const patch = [
      '*** Begin Patch',
      '*** Add File: new.fk',
      '+fine',
      '+WARN: careful',
      '*** Delete File: old.fk',
      '*** End Patch',
    ].join('\n');
    const result = await runTool(patchTool, { patch_text: patch }, ctx);
    expect(result.output).toBe(
      'Patch applied successfully. 2 files changed, 2 additions, 1 removals\n' +
        `<file_diagnostics>\nWarn: ${join(dir, 'new.fk')}:2:1 [fake][W1] careful\n</file_diagnostics>\n` +
        '<diagnostic_summary>\nChanged files: 0 errors, 1 warning introduced by this change\n</diagnostic_summary>\n',
    );
    expect(service.openDocuments('fake')).toEqual([join(dir, 'new.fk')]);
  });
});
