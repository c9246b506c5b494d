/**
 * Servers that are broken from the start give one clear line at once, never a wait for a timeout: one
 * that crashes at start, one that prints text instead of LSP, one that announces an impossible message
 * length. A file with thousands of problems gives the first ones and the count. The framing check
 * itself is a pure function with its own cases.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { formatChangeReport } from '../../src/lsp/diagnostics.js';
import { FrameGuard, MAX_MESSAGE_BYTES } from '../../src/lsp/frame-guard.js';
import { LspService } from '../../src/lsp/service.js';
import { fakePlan, tempProject } from './fake-server.js';

let service: LspService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

/** An edit of a.fk on a fresh service running the fake server in `mode`; start and diagnostics timeouts far beyond the test's. */
async function firstEdit(
  mode: string,
): Promise<{ file: string; summary: string; status: ReturnType<LspService['statuses']>[number] }> {
  const { dir, logFile } = tempProject();
  service = new LspService({
    root: dir,
    servers: [fakePlan(mode, logFile, { startTimeoutMs: 600_000, diagnosticsTimeoutMs: 600_000 })],
    env: process.env,
    watch: false,
  });
  const file = join(dir, 'a.fk');
  const report = (await service.changed([{ path: file, text: 'ERROR: one\n' }]))!;
  return { file, summary: formatChangeReport(report), status: service.statuses()[0]! };
}

describe('language servers broken from the start', () => {
  it('one that crashes at start: failed with its exit code and last stderr line', async () => {
    const { file, summary, status } = await firstEdit('crash-at-start');
    const reason = `${process.execPath} exited with code 2 during initialize: cannot read settings`;
    expect(status).toMatchObject({ state: 'failed', reason });
    expect(summary).toBe(
      `\n<diagnostic_summary>\nNo diagnostics for ${file}: the fake language server failed: ${reason}\n</diagnostic_summary>\n`,
    );
  });

  it('one that prints text instead of LSP: failed at once, naming what it wrote', async () => {
    const { file, summary, status } = await firstEdit('garbage');
    const reason = `${process.execPath} wrote "Hello! Type a command:" instead of an LSP message header (is it started in stdio mode?)`;
    expect(status).toMatchObject({ state: 'failed', reason });
    expect(summary).toBe(
      `\n<diagnostic_summary>\nNo diagnostics for ${file}: the fake language server failed: ${reason}\n</diagnostic_summary>\n`,
    );
  });

  it('one that announces an impossible message length: failed at once, naming the length', async () => {
    const { status } = await firstEdit('huge-length');
    expect(status).toMatchObject({
      state: 'failed',
      reason: `${process.execPath} announced an impossible message length of 99999999999 bytes (at most ${MAX_MESSAGE_BYTES} are accepted)`,
    });
  });
});

describe('a file with thousands of problems', () => {
  it('lists the first ten and counts them all', async () => {
    const { dir, logFile } = tempProject();
    service = new LspService({ root: dir, servers: [fakePlan('normal', logFile)], env: process.env, watch: false });
    const file = join(dir, 'big.fk');
    const report = (await service.changed([{ path: file, text: 'fine\nMANY:5000\n' }]))!;
    const listed = Array.from(
      { length: 10 },
      (_, k) => `Error: ${file}:2:1 [fake][E1] problem ${String(k + 1).padStart(4, '0')}`,
    );
    expect(formatChangeReport(report)).toBe(
      `\n<file_diagnostics>\n${listed.join('\n')}\n... and 4990 more diagnostics\n</file_diagnostics>\n` +
        '<diagnostic_summary>\nCurrent file: 5000 errors, 0 warnings introduced by this change\n</diagnostic_summary>\n',
    );
  });
});

describe('FrameGuard', () => {
  const feed = (...chunks: string[]) => {
    const guard = new FrameGuard();
    let problem: string | undefined;
    for (const c of chunks) problem = guard.push(Buffer.from(c, 'latin1'));
    return problem;
  };
  const body = '{"jsonrpc":"2.0","id":1,"result":{}}';

  it.each([
    ['one message', [`Content-Length: ${body.length}\r\n\r\n${body}`]],
    [
      'two messages split across chunks anywhere',
      [
        `Content-Len`,
        `gth: ${body.length}\r`,
        `\n\r\n${body.slice(0, 5)}`,
        `${body.slice(5)}Content-Length: 2\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{}`,
      ],
    ],
    ['a body holding header-like text and newlines', [`Content-Length: 12\r\n\r\nhello\nworld\n`]],
  ])('accepts %s', (_, chunks) => {
    expect(feed(...chunks)).toBeUndefined();
  });

  it.each([
    [
      'a line of text',
      ['Starting server...\n'],
      'wrote "Starting server..." instead of an LSP message header (is it started in stdio mode?)',
    ],
    [
      'text without a newline yet',
      ['Starting up'],
      'wrote "Starting up" instead of an LSP message header (is it started in stdio mode?)',
    ],
    [
      'a header block without Content-Length',
      ['Content-Type: x\r\n\r\n{}'],
      'sent a message without a Content-Length header',
    ],
    [
      'a length that is not a number',
      ['Content-Length: lots\r\n\r\n'],
      'announced a message length that is not a number: "lots"',
    ],
    [
      'an impossible length',
      ['Content-Length: 99999999999\r\n\r\n{'],
      `announced an impossible message length of 99999999999 bytes (at most ${MAX_MESSAGE_BYTES} are accepted)`,
    ],
  ])('names %s', (_, chunks, reason) => {
    expect(feed(...chunks)).toBe(reason);
  });
});
