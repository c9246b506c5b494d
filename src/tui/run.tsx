/**
 * Mounts the TUI: Ink with incremental rendering and a frame cap, on a stdout wrapper that
 * debounces resizes (output.ts). Resolves when the person quits.
 */
import { render } from 'ink';
import { format } from 'node:util';
import React from 'react';
import { TuiApp } from './App.js';
import { InputProvider } from './input/InputProvider.js';
import { DEFAULT_KEYMAP, type Keymap } from './keymap.js';
import { KeymapContext } from './keymap-context.js';
import { createTuiOutput } from './output.js';
import { loadHighlighter } from './render/highlight.js';
import { ChatStore } from './state/chat-store.js';
import type { ChatServices } from './state/services.js';
import { loadTheme } from './theme-loader.js';
import { startupComplete, startupMark } from '../startup-trace.js';

/** Frames per second at most (Ink's throttle); typing and streaming never repaint faster. */
export const MAX_FPS = 60;

export interface RunTuiOptions {
  services: ChatServices;
  themeName?: string;
  debug: boolean;
  /** problems found in the config files, shown on the logs page */
  configWarnings?: string[];
  /** the keys in effect (the config's `keybindings` applied); default the table's */
  keymap?: Keymap;
  /** the session to open; `null`: a new chat (default: the newest) */
  sessionId?: string | null;
  stdin?: NodeJS.ReadStream;
  stdout?: NodeJS.WriteStream;
  /**
   * Called once Ink's first frame is written (the app's modules then load); the code
   * grammars load after the promise it returns settles.
   */
  onFirstFrame?: () => Promise<unknown> | void;
  /** the TUI closes when this settles (the app failed to load) */
  quitWhen?: Promise<unknown>;
  /** false once the terminal is restored (a signal, a crash): Ink's writes are dropped from then on */
  terminalActive?: () => boolean;
  /** keys typed while the TUI loaded, held by the terminal until now (`TerminalSession.releaseInput`) */
  typedAhead?: string;
}

/** Runs the TUI until quit. */
export async function runTui(options: RunTuiOptions): Promise<void> {
  startupMark('runTui');
  const { services } = options;
  const store = new ChatStore(services, { debug: options.debug });
  // library console output would draw over the screen: it goes to the logs page instead
  routeConsoleToLog(store);
  for (const warning of options.configWarnings ?? []) store.log('warn', warning);
  const latest = options.sessionId === undefined ? services.sessions.list()[0]?.id : (options.sessionId ?? undefined);
  store.openSession(latest);
  // the warnings wait on the logs page: say so once, so a key bound twice does not go unnoticed
  const warnings = options.configWarnings?.length ?? 0;
  if (warnings > 0) {
    const logsKey = (options.keymap ?? DEFAULT_KEYMAP).hint('app.logs');
    store.setStatus(
      `${warnings} configuration warning${warnings === 1 ? '' : 's'}: see the logs page${logsKey ? ` (${logsKey})` : ''}`,
      'warn',
    );
  }

  const initialTheme = loadTheme(options.themeName, { cwd: services.cwd, env: process.env });
  // on the status bar, and (as every status message) on the logs page
  if (initialTheme.problem) store.setStatus(initialTheme.problem, 'error');

  const output = createTuiOutput(options.stdout ?? process.stdout, undefined, options.terminalActive);
  // Ink draws from the cursor: start from a clear screen (the first frame's skeleton is replaced at once)
  output.stream.write('\u001b[2J\u001b[H');
  let quit: () => void = () => {};
  const done = new Promise<void>((resolve) => (quit = resolve));
  const frameListeners = new Set<() => void>();
  let framed = false;
  let frames = 0;
  const onFrame = (listener: () => void) => {
    frameListeners.add(listener);
    return () => void frameListeners.delete(listener);
  };
  const tree = (
    <InputProvider typedAhead={options.typedAhead}>
      <TuiApp
        services={services}
        store={store}
        initialTheme={initialTheme.theme}
        onQuit={() => quit()}
        onFrame={onFrame}
      />
    </InputProvider>
  );
  const instance = render(
    options.keymap ? <KeymapContext.Provider value={options.keymap}>{tree}</KeymapContext.Provider> : tree,
    {
      stdout: output.stream,
      stdin: options.stdin ?? process.stdin,
      exitOnCtrlC: false,
      patchConsole: false,
      incrementalRendering: !process.env.OPENCODE_FULL_REDRAW,
      maxFps: MAX_FPS,
      onRender: () => {
        if (frames < 6) startupMark(`frame ${++frames}`);
        if (!framed) {
          framed = true;
          // after the first frame: what it did not need (the app, then the code grammars, drawn uncoloured until then)
          void Promise.resolve(options.onFirstFrame?.())
            .catch(() => {})
            .then(() => loadHighlighter())
            .then(startupComplete);
        }
        for (const listener of frameListeners) listener();
      },
    },
  );
  void options.quitWhen?.then(quit, quit);
  output.onResize(() => {
    // clear the screen: Ink then writes the whole frame once (scripts/build.mjs makes every resize a full redraw)
    output.stream.write('\u001b[2J\u001b[H');
  });
  await done;
  instance.unmount();
  await instance.waitUntilExit().catch(() => {});
  output.dispose();
  store.dispose();
}

function routeConsoleToLog(store: ChatStore): void {
  console.warn = (...args: unknown[]) => store.log('warn', format(...args));
  console.error = (...args: unknown[]) => store.log('error', format(...args));
  console.log = (...args: unknown[]) => store.log('debug', format(...args));
  console.info = (...args: unknown[]) => store.log('debug', format(...args));
  console.debug = (...args: unknown[]) => store.log('debug', format(...args));
}
