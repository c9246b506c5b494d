/** Helpers for the LSP tests: a plan for the fake server (test/fixtures/fake-lsp-server.mjs) and its log. */
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LspServerPlan } from '../../src/lsp/servers.js';

export const FAKE_SERVER = join(import.meta.dirname, '..', 'fixtures', 'fake-lsp-server.mjs');

/** A plan starting the fake server in `mode` for `.fk` files, logging to `logFile`. */
export function fakePlan(mode: string, logFile: string, overrides: Partial<LspServerPlan> = {}): LspServerPlan {
  return {
    language: 'fake',
    command: process.execPath,
    args: [FAKE_SERVER, mode],
    env: { FAKE_LSP_LOG: logFile },
    extensions: ['.fk'],
    source: 'config',
    why: 'configured in lsp.fake',
    startTimeoutMs: 20_000,
    diagnosticsTimeoutMs: 20_000,
    ...overrides,
  };
}

/** A temp project folder (optionally with an awkward name) and a log file beside it. */
export function tempProject(name = 'project'): { dir: string; logFile: string } {
  const base = mkdtempSync(join(tmpdir(), 'opencode-lsp-'));
  const dir = join(base, name);
  mkdirSync(dir);
  return { dir, logFile: join(base, 'server.log') };
}

/** The fake server's log entries. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- entries of every kind, read by the tests that wrote them
export function readLog(logFile: string): Record<string, any>[] {
  if (!existsSync(logFile)) return [];
  return readFileSync(logFile, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

/** Polls `test` every 20 ms until it holds (or throws after `timeoutMs`, naming `what`). */
export async function until(what: string, test: () => boolean, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!test()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
