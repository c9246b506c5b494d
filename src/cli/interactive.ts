/**
 * `opencode` without -p: the TUI. Start-up comes in three steps:
 * 1. the skeleton frame, before anything heavy loads;
 * 2. config, models, the app's storage (database): the first steps of the start every front end
 *    takes (src/app/start.ts); then Ink: the full UI on the services of pending-services.ts, usable
 *    at once (the editor takes keys, sessions are listed);
 * 3. after that first full frame, the start's trust (the dialog) and app steps: the rest of the app
 *    (tools, agents, permission, MCP, LSP) loads in slices (app-loader.ts) and the services forward
 *    to it; a prompt sent meanwhile waits for it.
 * The terminal is restored on every way out (see tui/terminal.ts).
 */
import { resolve } from 'node:path';
import type { App } from '../app/app.js';
import { drawFirstFrame } from '../tui/first-frame.js';
import { enterFullScreen } from '../tui/terminal.js';
import { VERSION } from '../version.js';
import type { CliOptions } from './options.js';
import { tuiStartSession } from './session-ref.js';
import { startupMark } from '../startup-trace.js';

/** Starts the interactive TUI in `opts.cwd`. Resolves with the exit code when the person quits. */
export async function runInteractive(opts: CliOptions): Promise<number> {
  const cwd = resolve(opts.cwd ?? process.cwd());
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    return fail(
      'the TUI needs a terminal (stdin and stdout must be a TTY); to run one prompt without it use: opencode -p "your request"',
    );
  }
  process.chdir(cwd);
  const terminal = enterFullScreen(1, (err) =>
    process.stderr.write(`opencode crashed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`),
  );
  drawFirstFrame(
    process.stdout,
    { rows: process.stdout.rows, columns: process.stdout.columns },
    { version: VERSION, cwd },
  );
  startupMark('skeleton drawn');
  const leave = (code: number, lines: string[]) => {
    terminal.restore();
    for (const line of lines) process.stderr.write(`${line}\n`);
    return code;
  };

  // what the first full frame needs; the rest of the app loads after it
  const [
    { loadTuiConfig },
    { loadKeymap },
    { startApp, StartError },
    { closeAppStorage },
    { planServers },
    { pendingChatServices },
    { loadAppInSlices, loadTuiTrust },
    { runTui },
  ] = await Promise.all([
    import('./tui-config.js'),
    import('./keybindings.js'),
    import('../app/start.js'),
    import('../app/storage.js'),
    import('../lsp/servers.js'),
    import('./pending-services.js'),
    import('./app-loader.js'),
    import('../tui/run.js'),
  ]);
  startupMark('modules loaded');
  let firstFrame: () => void = () => {};
  const framed = new Promise<void>((resolve) => (firstFrame = resolve));
  // problems are printed after the full screen is left; warnings go to the logs page. Unchanged files
  // take the full check's remembered result (tui-config.ts): the schema loads after the first frame
  let configCheck: Awaited<ReturnType<typeof loadTuiConfig>> | undefined;
  const start = startApp({
    cwd,
    env: process.env,
    model: opts.model,
    profile: opts.profile,
    debug: opts.debug,
    trust: opts.trust,
    generateTitles: true,
    readConfig: async () => (configCheck = await loadTuiConfig({ cwd, env: process.env })).loaded,
    // the trust dialog's answer (below), after the first frame
    decideTrust: async () => (await trust).start,
    // the app's modules load a slice at a time after the first frame, while the trust dialog may be open
    loadApp: loadAppInSlices,
  });
  let started;
  let models;
  let storage;
  let keys;
  try {
    started = await start.config();
    startupMark(`config loaded${configCheck?.fromCache ? ' (remembered check)' : ''}`);
    // keybindings that cannot be read stop the start like any config error
    keys = loadKeymap(started.loaded);
    if (keys.errors.length > 0) return leave(2, keys.errors);
    // --profile / OPENCODE_PROFILE applied; a saved model without its key replaced, with a warning
    models = await start.providers();
    startupMark('models chosen');
    storage = await start.storage();
  } catch (err) {
    if (!(err instanceof StartError)) throw err;
    // a config problem names its file and is printed as it is
    if (err.step === 'config') return leave(2, err.lines);
    return leave(err.step === 'models' ? 2 : 1, [`opencode: ${err.message}`]);
  }
  const { loaded, config } = started;
  const appStorage = storage;
  // which session opens: --session ID, --continue, else the one last used in the TUI
  let sessionId: string | null;
  try {
    sessionId = tuiStartSession(storage.db, { continue: opts.continue, session: opts.session });
  } catch (err) {
    closeAppStorage(appStorage);
    return leave(2, [`opencode: ${(err as Error).message}`]);
  }
  const lspServers = planServers(cwd, config.lsp, process.env.PATH).servers;
  startupMark('language servers planned');
  void framed.then(() => configCheck?.remember());
  // workspace trust, after the first frame: an untrusted project's own code waits for the trust
  // dialog's answer, and the app starts with or without it (so trusting needs no restart)
  const trust = framed
    .then(loadTuiTrust)
    .then(({ tuiTrust }) => tuiTrust({ config, sources: loaded.sources }, cwd, process.env, opts.trust));
  const app: Promise<App> = framed.then(() => start.app());
  // a signal or a crash: stop running commands (their process groups) before exiting
  void app.then(
    (loadedApp) => terminal.onAbnormalExit(() => loadedApp.cancelAll()),
    () => {},
  );
  if (config.debug) {
    // -d: the requests' and tools' lines (debug-log.ts) as debug entries of the logs page, where the
    // TUI sends console.debug while it runs (tui/run.tsx); the app loads after the first frame
    const { attachDebugLog } = await import('./debug-log.js');
    void app.then(
      (loadedApp) => attachDebugLog(loadedApp, models.settings, (line) => console.debug(line)),
      () => {},
    );
  }
  let loadError: unknown;
  const { services } = pendingChatServices(
    {
      cwd,
      config,
      storage,
      coderModel: models.models.coder,
      // the languages the app has servers for (planned once, here: a PATH lookup and a bounded scan)
      lspLanguages: lspServers.map((s) => s.language),
      settings: models.settings,
      profile: models.profile,
      trust: {
        pending: () => trust.then((t) => t.pending),
        answer: (yes) => trust.then((t) => t.answer(yes)),
      },
      startCustomTools: () => start.customTools(),
    },
    app,
  );
  startupMark('storage open, services built');
  // keys typed since the skeleton are handled before what Ink reads after
  const typedAhead = await terminal.releaseInput();
  try {
    await runTui({
      services,
      themeName: config.tui?.theme,
      debug: config.debug,
      configWarnings: [...loaded.warnings, ...keys.warnings, ...models.warnings],
      keymap: keys.keymap,
      sessionId,
      // the code grammars load once the app has (run.tsx): the first keys are not kept waiting by both
      onFirstFrame: () => {
        firstFrame();
        return app;
      },
      terminalActive: terminal.active,
      typedAhead,
      // the app failed to load: the TUI closes and the error is printed
      quitWhen: app.then(
        () => new Promise<void>(() => {}),
        (err: unknown) => void (loadError = err),
      ),
    });
  } finally {
    terminal.restore();
    firstFrame(); // quit before the first frame: the app still loads, to be closed in order
    // quit with the trust dialog unanswered: the app loads without the project's code, to be closed
    void trust.then(
      (t) => t.answer(false),
      () => {},
    );
    const loadedApp = await app.catch(() => undefined);
    if (loadedApp) {
      // every request still running (a reply, a title waiting on a silent provider) is cancelled, or close() would wait for it
      loadedApp.cancelAll();
      const closed = await settlesWithin(loadedApp.close(), QUIT_GRACE_MS);
      // whatever still holds the event loop (a server's socket, an MCP server slow to stop) must not keep
      // a quit process alive with a blank screen; the timer does not hold the loop itself
      setTimeout(() => process.exit(), closed ? 250 : 0).unref();
    } else {
      closeAppStorage(appStorage);
    }
  }
  if (loadError !== undefined)
    return leave(1, [`opencode: cannot start: ${loadError instanceof Error ? loadError.message : String(loadError)}`]);
  return 0;
}

/** How long quitting waits for the app to close (runs write their last messages, servers stop), ms. */
export const QUIT_GRACE_MS = 1000;

/** Whether `work` settled (either way) within `ms`. */
async function settlesWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const done = work.then(
    () => true,
    () => true,
  );
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const settled = await Promise.race([done, late]);
  clearTimeout(timer);
  return settled;
}

function fail(line: string): number {
  process.stderr.write(`opencode: ${line}\n`);
  return 2;
}
