/**
 * One dialog or page rendered by ink-testing-library inside the TUI's InputProvider (under a keymap
 * when given), with a key presser and its frame as text; unmounted after each test. For component
 * tests; the whole TUI is render-tui.tsx.
 */
import { render } from 'ink-testing-library';
import type React from 'react';
import { afterEach } from 'vitest';
import { InputProvider } from '../../src/tui/input/InputProvider.js';
import type { Keymap } from '../../src/tui/keymap.js';
import { KeymapContext } from '../../src/tui/keymap-context.js';

/** Lets a render happen (ms). */
export const settle = () => new Promise((r) => setTimeout(r, 30));

/** The bytes a terminal sends for the keys dialogs use. */
export const KEYS = {
  enter: '\r',
  up: '\u001b[A',
  down: '\u001b[B',
  left: '\u001b[D',
  right: '\u001b[C',
  tab: '\t',
  esc: '\u001b',
  backspace: '\u007f',
};

/** What a shown dialog gives a test. */
export interface ShownDialog extends ReturnType<typeof render> {
  /** writes each key to stdin in turn, a render after each */
  press(...keys: string[]): Promise<void>;
  /** the last frame */
  frame(): string;
  /** the dialog's text without its frame, lines joined by one space: for sentences that wrap */
  text(): string;
}

/**
 * Returns `show(node, { keymap })`, which renders `node` and resolves once it has drawn. Call once at
 * the top of a test file: it registers an `afterEach` that unmounts what was shown.
 */
export function dialogPerTest(): (node: React.ReactNode, options?: { keymap?: Keymap }) => Promise<ShownDialog> {
  let unmount: (() => void) | undefined;
  afterEach(() => {
    unmount?.();
    unmount = undefined;
  });
  return async (node, options = {}) => {
    const tree = <InputProvider>{node}</InputProvider>;
    const r = render(
      options.keymap ? <KeymapContext.Provider value={options.keymap}>{tree}</KeymapContext.Provider> : tree,
    );
    unmount = r.unmount;
    await settle();
    const press = async (...keys: string[]) => {
      for (const key of keys) {
        r.stdin.write(key);
        await settle();
      }
    };
    const frame = () => r.lastFrame() ?? '';
    const text = () =>
      frame()
        .split('\n')
        .map((l) => l.replace(/^[│╭╰]|[│╮╯]$/g, '').trim())
        .join(' ')
        .replace(/\s+/g, ' ');
    return { ...r, press, frame, text };
  };
}
