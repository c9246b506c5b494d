/**
 * `opencode acp`: serves the Agent Client Protocol on stdin/stdout until the editor closes the
 * connection. stdout carries only the protocol's JSON-RPC lines: everything else that
 * would reach it (a library's `console.log`, a plugin's `process.stdout.write`) goes to stderr, and
 * our own log lines go to stderr and to `<data dir>/acp.log` of the project they concern.
 *
 * Nothing of the TUI or the CLI loads here.
 */
import { resolve } from 'node:path';
import { Readable } from 'node:stream';
import { ndJsonStream } from '@agentclientprotocol/sdk';
import { tryLoadConfig } from '../config/load.js';
import { reserveStdout, routeLibraryConsole } from '../app/library-console.js';
import { applyProfile, chooseProfileName } from '../config/profiles.js';
import type { ProviderSettings } from '../provider/settings.js';
import { signalExitCode } from '../app/signal-exit.js';
import { AcpServer } from './agent-server.js';

/** How long closing waits for runs to write their last messages and servers to stop, ms. */
const CLOSE_GRACE_MS = 1000;

/** The global options `opencode acp` takes (the command line's `--cwd`, `-m`, `--profile`, `-d`, `--trust`). */
export interface AcpOptions {
  /** the folder the editor started us in (default the current directory) */
  cwd?: string;
  /** `-m provider/model` for every session */
  model?: string;
  /** `--profile name` (else OPENCODE_PROFILE) */
  profile?: string;
  debug?: boolean;
  /** `--trust`: the projects' own code runs even when they are not trusted */
  trust?: boolean;
}

/** Serves until stdin ends (exit code 0) or SIGINT/SIGTERM (130/143); resolves with the exit code. */
export async function runAcp(opts: AcpOptions): Promise<number> {
  // every other writer of stdout goes to stderr: stdout carries only the protocol's messages
  const protocolWrite = reserveStdout();
  routeLibraryConsole(!!opts.debug);
  const log = (line: string) => process.stderr.write(`opencode acp: ${line}\n`);
  const launchCwd = resolve(opts.cwd ?? process.cwd());
  const server = new AcpServer({
    env: process.env,
    launchSettings: launchProviderSettings(launchCwd, opts.profile),
    launchCwd,
    model: opts.model,
    profile: opts.profile,
    debug: opts.debug,
    trust: opts.trust,
    log,
  });
  const output = new WritableStream<Uint8Array>({
    write: (chunk) => new Promise<void>((done, fail) => protocolWrite(chunk, (err) => (err ? fail(err) : done()))),
  });
  const input = Readable.toWeb(process.stdin) as unknown as ReadableStream<Uint8Array>;
  const connection = server.app().connect(ndJsonStream(output, input));
  const stop = () => connection.close();
  // the exit code says which signal ended the server, as shells expect (128 + its number)
  let stoppedBy: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    stoppedBy ??= signal;
    stop();
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  // the editor closed our stdout (EPIPE): it is gone; end as when it closes stdin
  process.stdout.on('error', stop);
  await connection.closed;
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  await settlesWithin(server.close(), CLOSE_GRACE_MS);
  // an MCP server slow to stop or a socket must not keep an editor's agent process alive
  setTimeout(() => process.exit(), 100).unref();
  return stoppedBy === undefined ? 0 : signalExitCode(stoppedBy);
}

/**
 * The providers of the folder the editor started us in, with the profile applied (`--profile`, else
 * OPENCODE_PROFILE): what `initialize` offers as auth methods. A config with problems, or an unknown
 * profile, gives the environment's keys only (session/new then says what is wrong).
 */
function launchProviderSettings(cwd: string, cliProfile: string | undefined): ProviderSettings {
  const loaded = tryLoadConfig(cwd);
  if ('problems' in loaded) return { providers: {}, env: process.env };
  try {
    return {
      providers: applyProfile(loaded.config, chooseProfileName(cliProfile, process.env)).providers ?? {},
      env: process.env,
    };
  } catch {
    return { providers: loaded.config.providers ?? {}, env: process.env };
  }
}

async function settlesWithin(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([work.catch(() => undefined), new Promise<void>((done) => (timer = setTimeout(done, ms)))]);
  clearTimeout(timer);
}
