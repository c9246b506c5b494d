/**
 * The targets of the sandbox tests' hostile programs (test/fixtures/sandbox-harm*.mjs): a temp project
 * holding a `.opencode.json`, a directory outside it, and a loopback TCP listener that answers `ok` and
 * counts who reached it. Afterwards, {@link HarmTargets.harmed} says which harms happened.
 */
import { existsSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const HARM_FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'sandbox-harm.mjs');
export const HARM_MCP_FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'sandbox-harm-mcp.mjs');
export const HARM_LSP_FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'sandbox-harm-lsp.mjs');
/** What the project's `.opencode.json` holds before the program runs. */
export const CONFIG_TEXT = '{}\n';

export interface HarmTargets {
  project: string;
  /** a file the program tries to create, outside the project */
  outside: string;
  /** the environment the program needs: HARM_OUTSIDE, HARM_PROJECT, HARM_PORT */
  env: Record<string, string>;
  /** which harms happened: a file outside, a changed `.opencode.json`, a connection to the listener */
  harmed(): { outside: boolean; config: boolean; tcp: boolean };
  /** what the program said happened (`harm-report.json` in the project): `done` or the error code of each; undefined before it ran */
  report(): { outside: string; config: string; tcp: string } | undefined;
  close(): Promise<void>;
}

/**
 * Creates the targets. `config` is the project's `.opencode.json` text, or a function of the project
 * and the programs' environment that gives it (a config naming the hostile server).
 */
export async function harmTargets(
  config: string | ((t: { project: string; env: Record<string, string> }) => string) = CONFIG_TEXT,
): Promise<HarmTargets> {
  const project = realpathSync(mkdtempSync(join(tmpdir(), 'opencode-harm-project-')));
  const outside = join(realpathSync(mkdtempSync(join(tmpdir(), 'opencode-harm-outside-'))), 'written.txt');
  let connections = 0;
  const server: Server = createServer((socket) => {
    socket.once('data', () => {
      connections++;
      socket.end('ok\n');
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const env = { HARM_OUTSIDE: outside, HARM_PROJECT: project, HARM_PORT: String(port) };
  const configText = typeof config === 'string' ? config : config({ project, env });
  writeFileSync(join(project, '.opencode.json'), configText);
  return {
    project,
    outside,
    env,
    harmed: () => ({
      outside: existsSync(outside),
      config: readFileSync(join(project, '.opencode.json'), 'utf8') !== configText,
      tcp: connections > 0,
    }),
    report: () =>
      existsSync(join(project, 'harm-report.json'))
        ? JSON.parse(readFileSync(join(project, 'harm-report.json'), 'utf8'))
        : undefined,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
