/**
 * Starting the MCP test server (test/fixtures/mcp-test-server.ts) and server-filesystem for the MCP tests.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { mcpServerSchema, type McpServerConfig } from '../../src/config/schema.js';
import { McpService, type McpServiceOptions, type McpServerInfo } from '../../src/mcp/service.js';

const ROOT = join(import.meta.dirname, '..', '..');
export const FIXTURE = join(ROOT, 'test', 'fixtures', 'mcp-test-server.ts');
/** tsx's loader by absolute path: a stdio server runs in the project dir, where `tsx` does not resolve */
export const TSX_LOADER = join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs');
export const FILESYSTEM_SERVER = join(
  ROOT,
  'node_modules',
  '@modelcontextprotocol',
  'server-filesystem',
  'dist',
  'index.js',
);

/** A parsed `mcpServers` entry, as the config loader gives it. */
export function serverConfig(entry: Record<string, unknown>): McpServerConfig {
  return mcpServerSchema.parse(entry);
}

/** The entry that runs the test server over stdio. */
export function stdioFixture(flags: string[] = [], extra: Record<string, unknown> = {}): McpServerConfig {
  return serverConfig({
    command: process.execPath,
    args: ['--import', TSX_LOADER, FIXTURE, 'stdio', ...flags],
    ...extra,
  });
}

/** The test server over Streamable HTTP (or, with `mode` `sse`, HTTP+SSE) on 127.0.0.1, as a child process. */
export async function startHttpFixture(
  flags: string[] = [],
  mode: 'http' | 'sse' = 'http',
): Promise<{ url: string; child: ChildProcess; close(): void }> {
  const child = spawn(process.execPath, ['--import', TSX_LOADER, FIXTURE, mode, ...flags], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`HTTP fixture exited with ${code}`)));
  });
  return { url, child, close: () => void child.kill('SIGKILL') };
}

export function tempDir(prefix = 'opencode-mcp-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** A started service; `close` is registered by the caller. */
export function startService(options: Omit<McpServiceOptions, 'cwd'> & { cwd?: string }): McpService {
  const service = new McpService({ cwd: options.cwd ?? tempDir(), ...options });
  service.start();
  return service;
}

/** Resolves with the server's info once `predicate` holds for it (checked now and on every update). */
export function whenServer(
  service: McpService,
  name: string,
  predicate: (info: McpServerInfo) => boolean,
  timeoutMs = 20_000,
): Promise<McpServerInfo> {
  return new Promise((resolve, reject) => {
    const check = (): boolean => {
      const info = service.servers().find((s) => s.name === name);
      if (info && predicate(info)) {
        off();
        clearTimeout(timer);
        resolve(info);
        return true;
      }
      return false;
    };
    const off = service.events.on('server.updated', () => void check());
    const timer = setTimeout(() => {
      off();
      reject(new Error(`server ${name} did not reach the state in time: ${JSON.stringify(service.servers())}`));
    }, timeoutMs);
    check();
  });
}
