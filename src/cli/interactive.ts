/**
 * `opencode` without -p: the TUI. The first frame is drawn before anything heavy loads (config,
 * models, storage, Ink), then the app is built and Ink takes over the screen. The terminal is
 * restored on every way out (see tui/terminal.ts).
 */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { App } from '../app/app.js';
import { drawFirstFrame } from '../tui/first-frame.js';
import { enterFullScreen } from '../tui/terminal.js';
import { VERSION } from '../version.js';
import type { CliOptions } from './main.js';

/** Starts the interactive TUI in `opts.cwd`. Resolves with the exit code when the person quits. */
export async function runInteractive(opts: CliOptions): Promise<number> {
  const cwd = resolve(opts.cwd ?? process.cwd());
  if (!existsSync(cwd) || !statSync(cwd).isDirectory()) return fail(`--cwd ${cwd}: no such directory`);
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    return fail('the TUI needs a terminal (stdin and stdout must be a TTY); to run one prompt without it use: opencode -p "your request"');
  }
  process.chdir(cwd);
  const terminal = enterFullScreen(1, (err) => process.stderr.write(`opencode crashed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`));
  drawFirstFrame(process.stdout, { rows: process.stdout.rows, columns: process.stdout.columns }, { version: VERSION, cwd });
  const leave = (code: number, lines: string[]) => {
    terminal.restore();
    for (const line of lines) process.stderr.write(`${line}\n`);
    return code;
  };

  // everything heavy loads after the first frame is on screen
  const [{ tryLoadConfig }, { resolveModels }, { createApp }, { chatServices }, { runTui }] = await Promise.all([
    import('./load-config.js'),
    import('./models.js'),
    import('../app/app.js'),
    import('./tui-services.js'),
    import('../tui/run.js'),
  ]);
  // problems are printed after the full screen is left; warnings go to the logs page
  const loaded = tryLoadConfig(cwd);
  if ('problems' in loaded) return leave(2, loaded.problems);
  // keybindings that cannot be read stop the start like any config error (issue 15 §3)
  const keys = (await import('./keybindings.js')).loadKeymap(loaded);
  if (keys.errors.length > 0) return leave(2, keys.errors);
  const config = { ...loaded.config, debug: loaded.config.debug || !!opts.debug };
  let models;
  try {
    models = await resolveModels(config, process.env, opts.model);
  } catch (err) {
    return leave(2, [`opencode: ${(err as Error).message}`]);
  }
  let app: App;
  try {
    app = createApp({ cwd, config, models: models.models, providerSettings: models.settings, generateTitles: true });
  } catch (err) {
    return leave(1, [`opencode: cannot open the session database: ${(err as Error).message}`]);
  }
  // a signal or a crash: stop running commands (their process groups) before exiting
  terminal.onAbnormalExit(() => app.cancelAll());
  try {
    await runTui({
      services: chatServices(app, models.settings),
      themeName: config.tui?.theme,
      debug: config.debug,
      configWarnings: [...loaded.warnings, ...keys.warnings],
      keymap: keys.keymap,
    });
  } finally {
    terminal.restore();
    // every request still running (a reply, a title waiting on a silent provider) is cancelled, or close() would wait for it
    app.cancelAll();
    const closed = await settlesWithin(app.close(), QUIT_GRACE_MS);
    // whatever still holds the event loop (a server's socket, an MCP server slow to stop) must not keep
    // a quit process alive with a blank screen (issue 10 §2); the timer does not hold the loop itself
    setTimeout(() => process.exit(), closed ? 250 : 0).unref();
  }
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
