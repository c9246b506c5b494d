/**
 * The code grammars, loaded one at a time: lowlight's `common` set (the ~35 languages of
 * `lowlight/lib/common.js`, kept equal by a test), each its own import, so loading them never blocks
 * the TUI for longer than one grammar takes (importing `lowlight` whole evaluated a 1.5 MB bundle,
 * every grammar highlight.js has, in one go).
 */
import type { LanguageFn } from 'highlight.js';
import { createLowlight } from 'lowlight';

/** Grammar name (as lowlight registers it) → its module. */
export const COMMON_GRAMMARS: Record<string, () => Promise<{ default: LanguageFn }>> = {
  arduino: () => import('highlight.js/lib/languages/arduino'),
  bash: () => import('highlight.js/lib/languages/bash'),
  c: () => import('highlight.js/lib/languages/c'),
  cpp: () => import('highlight.js/lib/languages/cpp'),
  csharp: () => import('highlight.js/lib/languages/csharp'),
  css: () => import('highlight.js/lib/languages/css'),
  diff: () => import('highlight.js/lib/languages/diff'),
  go: () => import('highlight.js/lib/languages/go'),
  graphql: () => import('highlight.js/lib/languages/graphql'),
  ini: () => import('highlight.js/lib/languages/ini'),
  java: () => import('highlight.js/lib/languages/java'),
  javascript: () => import('highlight.js/lib/languages/javascript'),
  json: () => import('highlight.js/lib/languages/json'),
  kotlin: () => import('highlight.js/lib/languages/kotlin'),
  less: () => import('highlight.js/lib/languages/less'),
  lua: () => import('highlight.js/lib/languages/lua'),
  makefile: () => import('highlight.js/lib/languages/makefile'),
  markdown: () => import('highlight.js/lib/languages/markdown'),
  objectivec: () => import('highlight.js/lib/languages/objectivec'),
  perl: () => import('highlight.js/lib/languages/perl'),
  php: () => import('highlight.js/lib/languages/php'),
  'php-template': () => import('highlight.js/lib/languages/php-template'),
  plaintext: () => import('highlight.js/lib/languages/plaintext'),
  python: () => import('highlight.js/lib/languages/python'),
  'python-repl': () => import('highlight.js/lib/languages/python-repl'),
  r: () => import('highlight.js/lib/languages/r'),
  ruby: () => import('highlight.js/lib/languages/ruby'),
  rust: () => import('highlight.js/lib/languages/rust'),
  scss: () => import('highlight.js/lib/languages/scss'),
  shell: () => import('highlight.js/lib/languages/shell'),
  sql: () => import('highlight.js/lib/languages/sql'),
  swift: () => import('highlight.js/lib/languages/swift'),
  typescript: () => import('highlight.js/lib/languages/typescript'),
  vbnet: () => import('highlight.js/lib/languages/vbnet'),
  wasm: () => import('highlight.js/lib/languages/wasm'),
  xml: () => import('highlight.js/lib/languages/xml'),
  yaml: () => import('highlight.js/lib/languages/yaml'),
};

/**
 * A lowlight with every grammar of {@link COMMON_GRAMMARS} registered, imported one by one with
 * `between()` awaited after each (the caller yields to input there).
 */
export async function loadCommonGrammars(between: () => Promise<void>): Promise<ReturnType<typeof createLowlight>> {
  const lowlight = createLowlight();
  for (const [name, load] of Object.entries(COMMON_GRAMMARS)) {
    lowlight.register(name, (await load()).default);
    await between();
  }
  return lowlight;
}
