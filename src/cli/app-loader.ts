/**
 * Loads the app's modules after the TUI's first full frame, a slice at a time (issue 16): each step
 * imports one part of the module graph (compiled and evaluated in one go), then yields with
 * `setImmediate`, so a key pressed meanwhile is read and drawn before the next part loads instead of
 * waiting behind ~1.3 MB of JavaScript evaluated at once. Sizes are of the bundle (`dist/`), 2026-12.
 */
import type { createApp } from '../app/app.js';

/** The import steps before `app.js` itself, heaviest parts first, each with what it brings. */
export const APP_LOAD_STEPS: readonly { loads: string; step: () => Promise<unknown> }[] = [
  { loads: 'iconv-lite, chardet, diff: the file tools\' encodings and diffs (~0.7 MB)', step: () => import('../tools/text-document.js') },
  { loads: 'the shell command analysis of the permission service (~0.2 MB)', step: () => import('../permission/shell-analysis.js') },
  { loads: 'the built-in tools and their zod schemas', step: () => import('../tools/index.js') },
  { loads: 'the agent loop, prompts, compaction', step: () => import('../agent/agent.js') },
  { loads: 'the MCP client (the SDK loads when a server is configured)', step: () => import('../mcp/service.js') },
  { loads: 'the language-server clients', step: () => import('../lsp/service.js') },
];

const yieldToInput = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * ms between the first full frame and the first step: a key typed as the UI appears (the moment a
 * person starts typing) is drawn before anything loads. A prompt sent within it waits this long more.
 */
export const APP_LOAD_DELAY_MS = 100;

/** Imports the app's modules in {@link APP_LOAD_STEPS}, yielding between steps; resolves with `createApp`. */
export async function loadAppInSlices(): Promise<typeof createApp> {
  await new Promise((resolve) => setTimeout(resolve, APP_LOAD_DELAY_MS));
  for (const { step } of APP_LOAD_STEPS) {
    await step();
    await yieldToInput();
  }
  const { createApp } = await import('../app/app.js');
  await yieldToInput();
  return createApp;
}
