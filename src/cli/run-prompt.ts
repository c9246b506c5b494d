/**
 * `opencode -p PROMPT`: one prompt without the TUI (the original's `-p`). Creates a session (or continues
 * one: `--continue`, `--session ID`), runs the coder agent and prints only the final answer
 * (`-f text|json`), or every step as JSON lines (`-f stream-json`, see stream-json.ts). `-d` writes
 * what debug-log.ts says to stderr. Permission: `deny` rules hold; what would ask the person is
 * approved (as the original), or refused with `--no-auto-approve`.
 *
 * Exit codes: 0 done, 1 the run failed (provider error, step cap, the model declined the prompt, a stop
 * reason we do not know, storage failure), 2 bad usage or
 * config (including no provider credential), 130 interrupted.
 */
import { sandboxNotice } from '../sandbox/index.js';
import { isatty } from 'node:tty';
import { resolve } from 'node:path';
import { finalText, type RunResult } from '../agent/agent.js';
import { REFUSAL_HINT } from '../agent/reply-end.js';
import type { App } from '../app/app.js';
import { startApp, StartError } from '../app/start.js';
import { setV8FlagAtRunTime } from './run-v8-flags.js';
import type { CliOptions } from './options.js';
import { signalExitCode } from '../app/signal-exit.js';
import { startSpinner } from './spinner.js';
import { waitForMcpBeforePrompt } from '../app/mcp-wait.js';
import { reserveStdout, routeLibraryConsole, type StdoutWrite } from '../app/library-console.js';
import { chosenSession, SessionLookupError } from './session-ref.js';
import { holdForPrompt } from './sessions-in-use.js';
import type { StreamJson } from './stream-json.js';
import { isNestedRun, NESTED_RUN_ENV } from '../permission/nested-run.js';

/** Runs the prompt and returns the process exit code. Never throws. */
export async function runPrompt(opts: CliOptions & { prompt: string }): Promise<number> {
  const fail = (code: number, line: string) => {
    process.stderr.write(`opencode: ${line}\n`);
    return code;
  };

  const cwd = resolve(opts.cwd ?? process.cwd());
  process.chdir(cwd);

  let prompt = opts.prompt;
  if (prompt === '-') {
    if (isatty(0))
      return fail(2, '-p - reads the prompt from standard input, but stdin is a terminal; pipe the prompt in');
    prompt = (await readStdin()).trimEnd();
  }
  if (prompt.trim() === '') return fail(2, 'the prompt is empty; pass the request as -p "..."');

  const start = startApp({
    cwd,
    env: process.env,
    model: opts.model,
    profile: opts.profile,
    debug: opts.debug,
    trust: opts.trust,
    generateTitles: false,
  });
  let started;
  try {
    started = await start.config();
  } catch (err) {
    if (!(err instanceof StartError)) throw err;
    // each problem names its file: printed as it is
    for (const line of err.lines) process.stderr.write(`${line}\n`);
    return 2;
  }
  const { config } = started;
  for (const warning of started.loaded.warnings) process.stderr.write(`warning: ${warning}\n`);
  routeLibraryConsole(config.debug);
  if (Object.values(config.mcpServers ?? {}).some((s) => !s.disabled && (s.type === 'http' || s.type === 'sse'))) {
    // A remote MCP server is reached through Node's fetch, whose undici runs a WebAssembly HTTP parser. V8
    // would optimise it in the background and the process wait for that at exit: ~170 ms more CPU and a
    // longer exit (BENCHMARKS.md). So no optimising compile of WebAssembly, set only here: any V8 flag makes
    // Node compile its built-in modules from source (their embedded code cache's flag hash no longer
    // matches), which a -p run without such a server should not pay; our own files loaded after it have
    // their own code cache entries (run-v8-flags.ts). (The providers' requests and a local server's model
    // listing go through node:http: provider/node-fetch.ts.)
    setV8FlagAtRunTime(await import('node:v8'), '--liftoff-only');
  }
  // stdout holds only the answer (or the stream-json lines): a plugin's or library's own writes go to stderr
  const answerWrite = reserveStdout();

  let models;
  let trust;
  let app: App;
  try {
    // --profile / OPENCODE_PROFILE applied; a saved model without its key replaced, with a warning
    models = await start.providers();
    for (const warning of models.warnings) process.stderr.write(`opencode: warning: ${warning}\n`);
    // an untrusted project's own code (plugins, tool files, MCP and language servers it names) is skipped, with one line
    trust = await start.trust();
    if (trust.refusal) process.stderr.write(`opencode: ${trust.refusal}\n`);
    if (!trust.trusted)
      process.stderr.write(
        `opencode: ${(await import('../app/project-code.js')).heldLine(trust.items, process.env)}\n`,
      );
    app = await start.app();
  } catch (err) {
    // a model that cannot be used is a usage error (2); a database that cannot be opened a failed run (1)
    if (err instanceof StartError) return fail(err.step === 'models' ? 2 : 1, err.message);
    throw err;
  }

  // --continue / --session: an unknown id is a usage error, before anything is sent
  let continued;
  try {
    continued = chosenSession(app.db, { continue: opts.continue, session: opts.session });
  } catch (err) {
    await closeQuietly(app);
    if (err instanceof SessionLookupError) return fail(2, err.message);
    return fail(1, (err as Error).message);
  }
  if (opts.continue && !continued)
    process.stderr.write('opencode: no earlier session in this project to continue; starting a new one\n');
  // a run the model started through bash: nobody approved it, so it approves nothing (permission/nested-run.ts)
  if (isNestedRun() && opts.autoApprove !== false) {
    process.stderr.write(
      `opencode: started by another opencode's command (${NESTED_RUN_ENV}=1): calls that would ask permission are refused, not approved\n`,
    );
  }

  // the sandbox's trial start runs meanwhile; a run without it is said once, before the first request
  const sandboxStatus = app.sandbox.status();
  // custom tools and plugins load while MCP servers start; both before the first request
  const customTools = start.customTools({
    write: (line) => process.stderr.write(`opencode: warning: ${line}\n`),
    writePluginLog: (line) => process.stderr.write(`opencode: ${line}\n`),
  });
  const stopMcpWarnings = await waitForMcpBeforePrompt(app.mcp, (line) => process.stderr.write(`opencode: ${line}\n`));
  await customTools;
  const sandboxLine = sandboxNotice(await sandboxStatus);
  if (sandboxLine) process.stderr.write(`opencode: ${sandboxLine}\n`);
  // -d and stream-json load only when asked for: every other -p run skips their modules
  if (config.debug) {
    const { attachDebugLog } = await import('./debug-log.js');
    attachDebugLog(app, models.settings, (line) => process.stderr.write(`[debug] ${line}\n`));
  }
  const startStreamJson =
    opts.outputFormat === 'stream-json' ? (await import('./stream-json.js')).startStreamJson : undefined;
  const spinner = !opts.quiet && process.stderr.isTTY ? startSpinner('Thinking...') : undefined;
  const controller = new AbortController();
  // the exit code says which signal ended the run, as shells expect (128 + its number)
  let stoppedBy: NodeJS.Signals | undefined;
  const onSigint = (signal: NodeJS.Signals) => {
    stoppedBy ??= signal;
    controller.abort();
  };
  process.once('SIGINT', onSigint);
  process.once('SIGTERM', onSigint);
  app.bus.on('provider.retry', (e) => {
    const note = `retrying (${e.attempt}/${e.maxRetries}) in ${waitText(e.delayMs)}: ${e.reason}`;
    // without a spinner a long backoff would look like a hang: say so on stderr
    if (spinner) spinner.update(note);
    else if (!opts.quiet) process.stderr.write(`opencode: ${note}\n`);
  });

  let result: RunResult;
  let stream: StreamJson | undefined;
  let streamError: NodeJS.ErrnoException | undefined;
  let sessionId: string | undefined;
  try {
    const session =
      continued ??
      app.db.sessions.create({ title: `Non-interactive: ${prompt.trim().replace(/\s+/g, ' ').slice(0, 100)}` });
    // `opencode sessions delete` elsewhere refuses it while this run holds it
    holdForPrompt(app.db, session.id);
    sessionId = session.id;
    if (startStreamJson) {
      const line = {
        id: session.id,
        title: session.title,
        model: app.coderModel.id,
        continued: continued !== undefined,
      };
      // a reader that goes away (`| head`) or a full disk must not crash the run: it is reported at the end
      process.stdout.on('error', (err: NodeJS.ErrnoException) => (streamError ??= err));
      stream = startStreamJson(app, line, (text) => {
        if (!streamError) answerWrite(text);
      });
    }
    // every session of this run, sub-agents' included: nobody is there to answer
    app.permission.setUnattended({ autoApprove: opts.autoApprove !== false });
    result = await app.coder.run(session.id, prompt, { signal: controller.signal });
  } catch (err) {
    spinner?.stop();
    stream?.stop();
    // `opencode sessions delete --force` elsewhere took the session from under the run
    const deleted = sessionId !== undefined && sessionGone(app, sessionId);
    await closeQuietly(app);
    if (deleted)
      return fail(
        1,
        `session ${sessionId} was deleted while this run was using it (\`opencode sessions delete --force\`); the reply is lost`,
      );
    return fail(1, (err as Error).message);
  } finally {
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigint);
  }
  spinner?.stop();
  stopMcpWarnings();
  await closeQuietly(app);

  if (stream) {
    // the last line says how the run ended, whatever it was; the exit code says it too
    stream.result(result, finalText(result));
    stream.stop();
    await new Promise<void>((resolve) => answerWrite('', () => resolve()));
    if (streamError?.code === 'EPIPE') return 0;
    if (streamError) return fail(1, `cannot write the output: ${streamError.message}`);
  }
  if (result.reason === 'canceled')
    return fail(signalExitCode(stoppedBy ?? 'SIGINT'), stoppedBy === 'SIGTERM' ? 'terminated' : 'interrupted');
  if (result.reason === 'error') return fail(1, result.error ?? 'the run failed');
  // a declined prompt is no answer: nothing on stdout, the model's explanation on stderr
  if (result.reason === 'refusal')
    return fail(1, `${result.error ?? 'The model declined to answer'} (${REFUSAL_HINT})`);
  if (!stream) {
    const text = finalText(result) || 'No content available';
    const output = opts.outputFormat === 'json' ? JSON.stringify({ response: text }, null, 2) : text;
    const written = await writeAnswer(answerWrite, `${output}\n`);
    if (written !== 0) return written;
  }
  if (result.reason === 'step_limit') return fail(1, result.error ?? 'step limit reached');
  // a stop reason we do not know may be a cut answer: printed, but not a success
  if (result.reason === 'unknown')
    return fail(1, `warning: ${result.error ?? 'the reply ended for an unknown reason'}`);
  if (result.reason === 'max_tokens') {
    process.stderr.write('opencode: warning: the answer was cut at the output limit (agents.coder.maxTokens)\n');
  }
  return 0;
}

/** A retry's wait for people: `0.5 s`, `2 s`, `95 s`. */
function waitText(ms: number): string {
  return ms < 10_000 ? `${Math.round(ms / 100) / 10} s` : `${Math.round(ms / 1000)} s`;
}

/** Reads all of stdin (asynchronously: a slow pipe must not fail with EAGAIN). */
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Writes the answer to stdout. A reader that went away (`| head`) is not a failure: exit 0 quietly;
 * any other write error (a full disk) is one line on stderr and exit 1.
 */
function writeAnswer(write: StdoutWrite, text: string): Promise<number> {
  return new Promise((resolve) => {
    process.stdout.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') return resolve(0);
      process.stderr.write(`opencode: cannot write the answer: ${err.message}\n`);
      resolve(1);
    });
    write(text, (err) => {
      if (!err) resolve(0);
    });
  });
}

/** The session is no longer in the database (a read that fails counts as still there). */
function sessionGone(app: App, sessionId: string): boolean {
  try {
    return app.db.sessions.get(sessionId) === undefined;
  } catch {
    return false;
  }
}

async function closeQuietly(app: App): Promise<void> {
  try {
    await app.close();
  } catch {
    // the answer is already decided; a failing close must not change it
  }
}
