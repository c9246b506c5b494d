/**
 * A server is started with the app and waited for until it has loaded the project, not for a fixed
 * time from the edit: the fake server in `slow-load` mode publishes nothing until some time after its
 * first document opens, as tsserver does while it loads a project. When it is still loading past its
 * start timeout, the result says so and the next result gives the diagnostics.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { formatChangeReport } from '../../src/lsp/diagnostics.js';
import { LspService } from '../../src/lsp/service.js';
import { fakePlan, readLog, tempProject, until } from './fake-server.js';

let service: LspService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

describe('language server readiness', () => {
  it('started early, it opens a file of its language before any tool asks', async () => {
    const { dir, logFile } = tempProject();
    writeFileSync(join(dir, 'main.fk'), 'fine\n');
    service = new LspService({ root: dir, servers: [fakePlan('normal', logFile)], env: process.env, watch: false });
    service.startEarly();
    await until('the warm-up open', () => readLog(logFile).some((e) => e.method === 'didOpen'));
    expect(
      readLog(logFile)
        .filter((e) => e.method === 'didOpen')
        .map((e) => e.uri),
    ).toEqual([`file://${join(dir, 'main.fk')}`]);
    expect(service.statuses()[0]!.state).toBe('ready');
  });

  it('a language the project has no file of is not started early', async () => {
    const { dir, logFile } = tempProject();
    writeFileSync(join(dir, 'notes.txt'), 'no .fk file here\n');
    service = new LspService({ root: dir, servers: [fakePlan('normal', logFile)], env: process.env, watch: false });
    service.startEarly();
    expect(service.statuses()[0]!.state).toBe('idle');
  });

  it("the first edit waits for the server's initial load, not only the diagnostics timeout from the edit", async () => {
    const { dir, logFile } = tempProject();
    const file = join(dir, 'a.fk');
    writeFileSync(file, 'fine\n');
    const plan = fakePlan('slow-load', logFile, {
      startTimeoutMs: 600_000,
      diagnosticsTimeoutMs: 200,
      env: { FAKE_LSP_LOG: logFile, FAKE_LSP_LOAD_MS: '1500' },
    });
    service = new LspService({ root: dir, servers: [plan], env: process.env, watch: false });
    service.startEarly();
    const report = (await service.changed([{ path: file, text: 'ERROR: broken\n' }]))!;
    expect(formatChangeReport(report)).toBe(
      `\n<file_diagnostics>\nError: ${file}:1:1 [fake][E1] broken\n</file_diagnostics>\n<diagnostic_summary>\nCurrent file: 1 error, 0 warnings introduced by this change\n</diagnostic_summary>\n`,
    );
  });

  it('a server still loading past its start timeout: the result says so, and the next result gives what it found', async () => {
    const { dir, logFile } = tempProject();
    const file = join(dir, 'a.fk');
    const plan = fakePlan('slow-load', logFile, {
      startTimeoutMs: 3000,
      diagnosticsTimeoutMs: 100,
      env: { FAKE_LSP_LOG: logFile, FAKE_LSP_LOAD_MS: '6000' },
    });
    service = new LspService({ root: dir, servers: [plan], env: process.env, watch: false });
    const first = (await service.changed([{ path: file, text: 'ERROR: broken\n' }]))!;
    expect(first.missing).toEqual([
      { path: file, reason: 'the fake language server is still starting; diagnostics will follow in the next result' },
    ]);
    await until('the load', () => service!.counts().errors === 1);
    const second = (await service.changed([{ path: file, text: 'ERROR: broken\n// more\n' }]))!;
    expect(formatChangeReport(second)).toBe(
      `\n<file_diagnostics>\nError: ${file}:1:1 [fake][E1] broken\n</file_diagnostics>\n<diagnostic_summary>\nCurrent file: 1 error, 0 warnings introduced by this change\n</diagnostic_summary>\n`,
    );
  });
});
