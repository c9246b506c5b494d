/**
 * One project folder of an `opencode acp` process: its config, models and {@link App} (the same
 * services `-p` builds), its custom tools and commands, and its log. ACP gives every session its own
 * `cwd`, so the process opens a project per folder on first use and keeps it until the editor goes
 * (the MCP servers an editor passes live only as long as the sessions that passed them: `editor-mcp.ts`).
 */
import { appendFileSync } from 'node:fs';
import { existsSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import type { McpServer as AcpMcpServer } from '@agentclientprotocol/sdk';
import type { App } from '../app/app.js';
import { heldLine } from '../app/project-code.js';
import { startApp, StartError } from '../app/start.js';
import { resolveDataDir } from '../config/load.js';
import type { McpServerConfig } from '../config/schema.js';
import { credentialValues, rememberSecrets } from '../tools/redact.js';
import type { FileAccess } from '../tools/file-access.js';
import { loadCustomCommands, userCommandDirs, type CustomCommand } from '../custom/commands.js';
import { authMethods } from './auth.js';
import { EditorMcpServers } from './editor-mcp.js';

/** An opened project. */
export interface Project {
  cwd: string;
  app: App;
  /** `<data dir>` of the project (default `<cwd>/.opencode`) */
  dataDir: string;
  /** settles when the custom tools and plugins are loaded (a prompt waits for it) */
  customTools: Promise<unknown>;
  /** the custom commands now (read afresh each time: a new file shows at the next session) */
  commands(): Promise<CustomCommand[]>;
  /** a line to stderr and to `<data dir>/acp.log` */
  log(line: string): void;
  /** the MCP servers the editor passed, per session that passed them */
  editorMcp: EditorMcpServers;
}

/** Why a project cannot be opened; `kind` picks the JSON-RPC error. */
export class ProjectOpenError extends Error {
  constructor(
    message: string,
    /** `params`: a bad cwd; `auth`: no provider credential; `config`: .opencode.json is wrong or the models cannot be used; `storage`: the database */
    readonly kind: 'params' | 'auth' | 'config' | 'storage',
  ) {
    super(message);
    this.name = 'ProjectOpenError';
  }
}

export interface OpenProjectOptions {
  env: NodeJS.ProcessEnv;
  /** `-m provider/model` */
  model?: string;
  /** `--profile name` (else OPENCODE_PROFILE) */
  profile?: string;
  debug?: boolean;
  /** `--trust`: the project's own code runs even when it is not trusted (`src/app/project-code.ts`) */
  trust?: boolean;
  /** the editor's file reader and writer, when it offers `fs/read_text_file` or `fs/write_text_file` */
  editorFiles?: FileAccess;
  /** a line for stderr (the process's log) */
  log: (line: string) => void;
}

/**
 * Opens the project at `cwd` (absolute, an existing folder).
 * @throws {ProjectOpenError} naming the problem and what to do
 */
export async function openProject(cwd: string, options: OpenProjectOptions): Promise<Project> {
  if (!isAbsolute(cwd)) throw new ProjectOpenError(`cwd must be an absolute path; got "${cwd}"`, 'params');
  if (!existsSync(cwd) || !statSync(cwd).isDirectory())
    throw new ProjectOpenError(`cwd ${cwd}: no such directory`, 'params');
  // as -p: --profile / OPENCODE_PROFILE applied, a saved model without its key replaced (with a
  // warning); an untrusted project's own code is skipped: the editor has no dialog for it, so the log says it
  const start = startApp({
    cwd,
    env: options.env,
    model: options.model,
    profile: options.profile,
    debug: options.debug,
    trust: options.trust,
    generateTitles: true,
    appOptions: options.editorFiles ? { toolHost: { fileAccess: options.editorFiles } } : undefined,
  });
  let app: App;
  try {
    app = await start.app();
  } catch (err) {
    if (!(err instanceof StartError)) throw err;
    if (err.step !== 'models') throw new ProjectOpenError(err.message, err.step);
    const { config } = await start.config();
    const noCredential = authMethods({ providers: config.providers ?? {}, env: options.env }).length === 0;
    throw new ProjectOpenError(err.message, noCredential ? 'auth' : 'config');
  }
  const [{ loaded, config }, models, trust] = await Promise.all([start.config(), start.providers(), start.trust()]);
  const dataDir = resolveDataDir(config, cwd);
  const logFile = join(dataDir, 'acp.log');
  const log = (line: string) => {
    options.log(line);
    try {
      appendFileSync(logFile, `${new Date().toISOString()} ${line}\n`);
    } catch {
      // the log file is a convenience: stderr has the line
    }
  };
  for (const warning of [...loaded.warnings, ...models.warnings]) log(`warning: ${warning}`);
  if (trust.refusal) log(trust.refusal);
  if (!trust.trusted) log(heldLine(trust.items, options.env));
  app.bus.on('warning', (w) => log(`warning: ${w.message}`));
  if (config.debug) {
    app.bus.on('tool.started', (e) => log(`[debug] tool ${e.name} ${e.toolCallId}`));
    app.bus.on('provider.retry', (e) => log(`[debug] retry ${e.attempt}/${e.maxRetries}: ${e.reason}`));
  }
  // custom tools and plugins load in the background; warnings go to the bus, and so to the log
  const customTools = start
    .customTools()
    .catch((err: unknown) => log(`custom tools failed to load: ${(err as Error).message}`));
  return {
    cwd,
    app,
    dataDir,
    customTools,
    commands: () => loadCustomCommands({ configDirs: userCommandDirs(options.env), dataDir, env: options.env }),
    log,
    editorMcp: new EditorMcpServers(app.mcp, log),
  };
}

/**
 * The editor's MCP servers (ACP `McpServer`) in our config shape, by name: stdio with its command,
 * arguments and environment; http and sse with URL and headers. Their credentials are remembered, so
 * tool results never show them. A name passed twice keeps its first server; `onDuplicate` is told the name.
 */
export function editorMcpServers(
  servers: readonly AcpMcpServer[],
  onDuplicate: (name: string) => void = () => {},
): Record<string, McpServerConfig> {
  // no prototype: a server named "__proto__" is a name like any other
  const out: Record<string, McpServerConfig> = Object.create(null) as Record<string, McpServerConfig>;
  for (const server of servers) {
    if (Object.hasOwn(out, server.name)) {
      // the first of a name is used, as a configured name is kept over the editor's
      onDuplicate(server.name);
      continue;
    }
    if ('type' in server && (server.type === 'http' || server.type === 'sse')) {
      const headers = Object.fromEntries(server.headers.map((h) => [h.name, h.value]));
      rememberSecrets(credentialValues(headers));
      out[server.name] = { type: server.type, url: server.url, headers };
    } else {
      const stdio = server as Extract<AcpMcpServer, { command: string }>;
      const env = Object.fromEntries(stdio.env.map((e) => [e.name, e.value]));
      rememberSecrets(credentialValues(env));
      out[stdio.name] = { type: 'stdio', command: stdio.command, args: stdio.args, env };
    }
  }
  return out;
}
