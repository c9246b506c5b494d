/**
 * The whole TUI rendered by ink-testing-library over a test app's services (tui-app.ts): the same
 * tree the TUI's start builds (InputProvider, TuiApp, optionally a keymap), with a frame poll and
 * a typist for the tests that drive it; {@link tuiPerTest} gives each test its own app and TUI and
 * closes them after it.
 */
import { render } from 'ink-testing-library';
import React from 'react';
import { afterEach } from 'vitest';
import { TuiApp } from '../../src/tui/App.js';
import { InputProvider } from '../../src/tui/input/InputProvider.js';
import type { Keymap } from '../../src/tui/keymap.js';
import { KeymapContext } from '../../src/tui/keymap-context.js';
import { ChatStore } from '../../src/tui/state/chat-store.js';
import type { ChatServices } from '../../src/tui/state/services.js';
import { THEMES } from '../../src/tui/themes.js';
import type { FakeTurn } from './fake-provider.js';
import { startTuiApp, type TuiApp as TestApp } from './tui-app.js';

export const tick = (ms = 30) => new Promise((r) => setTimeout(r, ms));

/** What {@link renderTui} gives a test; `cleanup` unmounts and disposes the store. */
export interface RenderedTui {
  ui: ReturnType<typeof render>;
  store: ChatStore;
  /** polls the last frame every 25 ms until `check` holds; @throws after `timeoutMs` with the last frame */
  waitFor(check: (frame: string) => boolean, timeoutMs?: number): Promise<string>;
  /** writes each of `keys` to stdin in turn, letting a render happen after each */
  type(...keys: string[]): Promise<void>;
  /** the person confirmed quitting */
  quitted(): boolean;
  cleanup(): void;
}

/** Renders the TUI on `services`, the session `sessionId` open (default: the newest), under `keymap` if given. */
export function renderTui(services: ChatServices, options: { sessionId?: string; keymap?: Keymap } = {}): RenderedTui {
  const store = new ChatStore(services);
  store.openSession('sessionId' in options ? options.sessionId : services.sessions.list()[0]?.id);
  let quit = false;
  const tree = (
    <InputProvider>
      <TuiApp services={services} store={store} initialTheme={THEMES.opencode} onQuit={() => (quit = true)} />
    </InputProvider>
  );
  const ui = render(
    options.keymap ? <KeymapContext.Provider value={options.keymap}>{tree}</KeymapContext.Provider> : tree,
  );
  return {
    ui,
    store,
    async waitFor(check, timeoutMs = 10_000) {
      const end = Date.now() + timeoutMs;
      while (Date.now() < end) {
        const frame = ui.lastFrame() ?? '';
        if (check(frame)) return frame;
        await tick(25);
      }
      throw new Error(`timed out; last frame:\n${ui.lastFrame()}`);
    },
    async type(...keys) {
      for (const key of keys) {
        ui.stdin.write(key);
        await tick();
      }
    },
    quitted: () => quit,
    cleanup() {
      ui.unmount();
      store.dispose();
    },
  };
}

/** What {@link tuiPerTest} gives a test file. */
export interface TuiPerTest {
  /** builds the test app (see `startTuiApp`); closed after the test */
  start(turns: FakeTurn[], options?: Parameters<typeof startTuiApp>[1]): Promise<TestApp>;
  /** renders the TUI on the app last started (see {@link renderTui}); unmounted after the test */
  render(options?: Parameters<typeof renderTui>[1]): RenderedTui;
}

/**
 * One test app and its TUI per test: call once at the top of a test file. Registers an `afterEach`
 * that unmounts the TUI and closes the app (its fake provider, its database).
 */
export function tuiPerTest(): TuiPerTest {
  let app: TestApp | undefined;
  let rendered: RenderedTui | undefined;
  afterEach(async () => {
    rendered?.cleanup();
    await app?.close();
    app = undefined;
    rendered = undefined;
  });
  return {
    async start(turns, options) {
      app = await startTuiApp(turns, options);
      return app;
    },
    render(options) {
      if (!app) throw new Error('tuiPerTest: start() the app before render()');
      rendered = renderTui(app.services, options);
      return rendered;
    },
  };
}
