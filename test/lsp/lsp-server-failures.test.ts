/**
 * Servers that go wrong are marked failed with the reason and nothing waits on them beyond its
 * timeout: a command that does not exist, one that never answers initialize, one that crashes
 * mid-session (restarted once, then failed).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LspService } from '../../src/lsp/service.js';
import { formatChangeReport } from '../../src/lsp/diagnostics.js';
import { fakePlan, readLog, tempProject, until } from './fake-server.js';

let service: LspService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

describe('LSP server failures', () => {
  it('a command that does not exist: failed with the reason, and the edit result says so', async () => {
    const { dir, logFile } = tempProject();
    service = new LspService({
      root: dir,
      servers: [fakePlan('normal', logFile, { command: 'no-such-language-server-xyz' })],
      env: process.env,
      watch: false,
    });
    const file = join(dir, 'a.fk');
    const report = (await service.changed([{ path: file, text: 'x' }]))!;
    const reason = 'command not found: no-such-language-server-xyz (install it, or set lsp.fake.command)';
    expect(service.statuses()[0]).toMatchObject({ state: 'failed', reason });
    expect(formatChangeReport(report)).toBe(
      `\n<diagnostic_summary>\nNo diagnostics for ${file}: the fake language server failed: ${reason}\n</diagnostic_summary>\n`,
    );
  });

  it('a server that never answers initialize: failed after its start timeout, and killed', async () => {
    const { dir, logFile } = tempProject();
    service = new LspService({
      root: dir,
      servers: [fakePlan('never-initialize', logFile, { startTimeoutMs: 1000 })],
      env: process.env,
      watch: false,
    });
    const query = await service.query(join(dir, 'a.fk'));
    expect(service.statuses()[0]).toMatchObject({ state: 'failed', reason: 'no answer to initialize within 1000 ms' });
    expect(query.notes).toEqual(['The fake language server failed: no answer to initialize within 1000 ms']);
    const pid = readLog(logFile)[0]!.pid as number;
    await until('the process to be gone', () => {
      try {
        process.kill(pid, 0);
        return false;
      } catch {
        return true;
      }
    });
  });

  it('a server that crashes mid-session is restarted once with its documents reopened, then marked failed', async () => {
    const { dir, logFile } = tempProject();
    service = new LspService({
      root: dir,
      servers: [fakePlan('crash-on-change', logFile, { diagnosticsTimeoutMs: 3000 })],
      env: process.env,
      watch: false,
    });
    const file = join(dir, 'a.fk');
    writeFileSync(file, 'ERROR: one\n');
    service.viewed(file, 'ERROR: one\n');
    await until('the first report', () => service!.counts().errors === 1);
    // the change kills it: this edit gets no diagnostics, the server comes back
    await service.changed([{ path: file, text: 'ERROR: one\nERROR: two\n' }]);
    await until(
      'the restart',
      () => service!.statuses()[0]!.state === 'ready' && new Set(readLog(logFile).map((e) => e.pid)).size === 2,
    );
    const second = readLog(logFile).filter((e) => e.pid !== readLog(logFile)[0]!.pid);
    await until('the reopen', () => readLog(logFile).some((e) => e.pid === second[0]!.pid && e.method === 'didOpen'));
    // it crashes again on the next change: failed for good, with the reason
    await service.changed([{ path: file, text: 'x\n' }]);
    await until('the failure', () => service!.statuses()[0]!.state === 'failed');
    expect(service.statuses()[0]!.reason).toBe('crashed again after a restart: exited with code 3 (boom)');
    // nothing waits on a failed server
    const report = (await service.changed([{ path: file, text: 'y\n' }]))!;
    expect(report.missing).toEqual([
      {
        path: file,
        reason: 'the fake language server failed: crashed again after a restart: exited with code 3 (boom)',
      },
    ]);
  });
});
