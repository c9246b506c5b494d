/**
 * Loads the app's modules after the TUI's first full frame, a slice at a time: each step
 * imports one part of the module graph (compiled and evaluated in one go), then yields to input
 * ({@link yieldToInput}), so a key pressed meanwhile is read and drawn before the next part loads
 * instead of waiting behind ~1.3 MB of JavaScript evaluated at once. Sizes are of the bundle
 * (`dist/`), 2026-12; the CPU figures are from profiles of the TUI's start on the 2-core machine.
 */
import type { createApp } from '../app/app.js';
import { startupMark } from '../startup-trace.js';
import { yieldToInput } from '../tui/input/yield-to-input.js';

/** The import steps before `app.js` itself, heaviest parts first, each with what it brings. */
export const APP_LOAD_STEPS: readonly { loads: string; step: () => Promise<unknown> }[] = [
  // the file tools' encodings and diffs (~0.7 MB): ~35 ms of CPU as one slice on the loaded machine
  { loads: "iconv-lite: the file tools' text encodings", step: () => import('iconv-lite') },
  { loads: 'chardet: the encoding guess of a file read', step: () => import('chardet') },
  { loads: "diff: edits' diffs and fuzzy matching", step: () => import('diff') },
  { loads: 'the text document of the file tools', step: () => import('../tools/text-document.js') },
  {
    loads: 'the shell command analysis of the permission service (~0.2 MB)',
    step: () => import('../permission/shell-analysis.js'),
  },
  // Node's own modules the tools require as they load (fetch, http_request, the sub-agent's
  // worker): compiled from Node's sources on first require, ~20 ms in all, so one a slice
  { loads: 'node:http (the fetch and http_request tools)', step: () => import('node:http') },
  { loads: 'node:https, node:zlib', step: () => Promise.all([import('node:https'), import('node:zlib')]) },
  { loads: 'node:worker_threads', step: () => import('node:worker_threads') },
  // each tool builds its zod schema and the JSON Schema of it as it loads (~25 ms for all at once)
  { loads: 'the bash tool and its shell', step: () => import('../tools/bash.js') },
  {
    loads: 'the file-writing tools (edit, patch, write)',
    step: () => Promise.all([import('../tools/edit.js'), import('../tools/patch.js'), import('../tools/write.js')]),
  },
  {
    loads: 'the search and read tools (glob, grep, ls, view)',
    step: () =>
      Promise.all([
        import('../tools/glob.js'),
        import('../tools/grep.js'),
        import('../tools/ls.js'),
        import('../tools/view.js'),
      ]),
  },
  {
    loads: 'the web tools and the sub-agent (fetch, sourcegraph, agent)',
    step: () =>
      Promise.all([import('../tools/fetch.js'), import('../tools/sourcegraph.js'), import('../tools/agent.js')]),
  },
  { loads: 'the tool registry', step: () => import('../tools/index.js') },
  // the config's zod schema: the TUI's start reads the config without it (src/cli/tui-config.ts)
  { loads: 'the config schema (zod, ~30 ms to build)', step: () => import('../config/schema.js') },
  { loads: 'the agent loop, prompts, compaction', step: () => import('../agent/agent.js') },
  { loads: 'the MCP client (the SDK loads when a server is configured)', step: () => import('../mcp/service.js') },
  { loads: 'the language-server clients', step: () => import('../lsp/service.js') },
];

/**
 * ms between the first full frame and the first step: a key typed as the UI appears (the moment a
 * person starts typing) is drawn before anything loads. A prompt sent within it waits this long more.
 */
export const APP_LOAD_DELAY_MS = 100;

/**
 * Workspace trust's TUI side (`tui-trust.ts`), loaded after the first frame like the app: finding what
 * a project would run reads its folders and loads the custom-tool loader.
 */
export const loadTuiTrust = (): Promise<typeof import('./tui-trust.js')> => import('./tui-trust.js');

/** Imports the app's modules in {@link APP_LOAD_STEPS}, yielding between steps; resolves with `createApp`. */
export async function loadAppInSlices(): Promise<typeof createApp> {
  await new Promise((resolve) => setTimeout(resolve, APP_LOAD_DELAY_MS));
  for (const [index, { step }] of APP_LOAD_STEPS.entries()) {
    await step();
    startupMark(`app step ${index + 1} loaded`);
    await yieldToInput();
  }
  const { createApp } = await import('../app/app.js');
  startupMark('app modules loaded');
  await yieldToInput();
  return createApp;
}
