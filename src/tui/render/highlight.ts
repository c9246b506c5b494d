/**
 * Syntax colouring for code blocks and file views: lowlight (highlight.js grammars, the `common`
 * set of ~35 languages) turns code into a hast tree whose spans carry hljs class names; a table
 * maps those names to the theme's syntax colours.
 */
import chalk from 'chalk';
import type { Element, ElementContent, Root } from 'hast';
import type { createLowlight } from 'lowlight';
import type { Theme } from '../theme.js';
import { yieldToInput } from '../input/yield-to-input.js';

type SyntaxColour = keyof Pick<
  Theme,
  | 'syntaxComment'
  | 'syntaxKeyword'
  | 'syntaxFunction'
  | 'syntaxVariable'
  | 'syntaxString'
  | 'syntaxNumber'
  | 'syntaxType'
  | 'syntaxOperator'
  | 'syntaxPunctuation'
  | 'diffAdded'
  | 'diffRemoved'
>;

/**
 * hljs scope → theme colour. A scope is the `hljs-` class plus its modifiers (`hljs-title function_`
 * → `title.function`); a scope missing here falls back to its parent (`title.class.inherited` →
 * `title.class`), and a scope with no entry at all keeps the surrounding colour.
 */
const SCOPE_COLOURS: Record<string, SyntaxColour> = {
  keyword: 'syntaxKeyword', // const, return, func
  'selector-tag': 'syntaxKeyword', // CSS `div`
  meta: 'syntaxKeyword', // #include, decorators, shebang: directive-like
  built_in: 'syntaxType', // number, string, len, console
  type: 'syntaxType', // Go `int`, Rust `u8`
  class: 'syntaxType', // (leaf only, see CONTAINER_SCOPES)
  'title.class': 'syntaxType', // class Foo
  title: 'syntaxFunction', // a bare title: a declared name
  'title.function': 'syntaxFunction', // function foo()
  function: 'syntaxFunction', // (leaf only)
  section: 'syntaxFunction', // markdown headings
  string: 'syntaxString', // "text"
  regexp: 'syntaxString',
  symbol: 'syntaxString', // Ruby :sym
  'selector-class': 'syntaxString',
  number: 'syntaxNumber', // 42
  literal: 'syntaxNumber', // true, null
  comment: 'syntaxComment', // // note
  quote: 'syntaxComment',
  doctag: 'syntaxComment', // @param
  variable: 'syntaxVariable', // $x
  'variable.language': 'syntaxVariable', // this, self
  'template-variable': 'syntaxVariable',
  attr: 'syntaxVariable', // JSON keys, object keys
  attribute: 'syntaxVariable', // HTML attributes
  property: 'syntaxVariable', // obj.prop
  'selector-attr': 'syntaxVariable',
  operator: 'syntaxOperator', // + =
  punctuation: 'syntaxPunctuation', // ; ,
  addition: 'diffAdded', // diff +
  deletion: 'diffRemoved', // diff -
};

/**
 * Scopes some grammars put around a whole construct (Go's `func f() {}` is one `hljs-function` span
 * holding the keyword, the title and the params): coloured only when they hold plain text, else
 * the whole construct would take one colour. (`params` is never coloured: it holds the parentheses.)
 */
const CONTAINER_SCOPES = new Set(['function', 'class']);

let lowlight: ReturnType<typeof createLowlight> | undefined;
let loading: Promise<void> | undefined;
const loadedListeners = new Set<() => void>();

/**
 * Loads the grammars (lowlight's `common` set: ~0.2 s of module evaluation in all, kept off the path to
 * the first frame, one grammar at a time: grammars.ts). Until they are in, {@link highlightCode} returns code uncoloured; `onLoaded`
 * listeners then redraw. Idempotent.
 */
export function loadHighlighter(): Promise<void> {
  // one grammar at a time, yielding between them: a key pressed meanwhile is drawn at once
  loading ??= import('./grammars.js')
    .then(({ loadCommonGrammars }) => loadCommonGrammars(yieldToInput))
    .then((loaded) => {
      lowlight = loaded;
      for (const listener of loadedListeners) listener();
    });
  return loading;
}

/** Calls `listener` once the grammars are loaded (see {@link loadHighlighter}); returns the unsubscribe. */
export function onHighlighterLoaded(listener: () => void): () => void {
  loadedListeners.add(listener);
  return () => loadedListeners.delete(listener);
}

/** Whether code is coloured yet. */
export function highlighterReady(): boolean {
  return lowlight !== undefined;
}

/** Created on first use: registering the grammars costs a few ms we don't want at startup. */
function scopeOf(node: Element): string | undefined {
  const classes = node.properties?.className;
  if (!Array.isArray(classes)) return undefined;
  const names = classes.map(String);
  const main = names.find((c) => c.startsWith('hljs-'));
  if (!main) return undefined;
  const modifiers = names.filter((c) => c !== main && c.endsWith('_')).map((c) => c.replace(/_+$/, ''));
  return [main.slice('hljs-'.length), ...modifiers].join('.');
}

function colourOf(scope: string | undefined, theme: Theme): string | undefined {
  let s = scope;
  while (s) {
    const key = SCOPE_COLOURS[s];
    if (key) return theme[key];
    const dot = s.lastIndexOf('.');
    s = dot > 0 ? s.slice(0, dot) : undefined;
  }
  return undefined;
}

function paint(nodes: ElementContent[], theme: Theme): string {
  let out = '';
  for (const node of nodes) {
    if (node.type === 'text') out += node.value;
    else if (node.type === 'element') {
      const inner = paint(node.children, theme);
      const scope = scopeOf(node);
      const leaf = node.children.every((child) => child.type === 'text');
      const colour = scope && (leaf || !CONTAINER_SCOPES.has(scope)) ? colourOf(scope, theme) : undefined;
      // chalk closes and reopens colours around '\n', so a multi-line comment splits into clean lines
      out += colour ? chalk.hex(colour)(inner) : inner;
    }
  }
  return out;
}

/**
 * Colours `code` for the terminal with the theme's syntax colours. `language` is a highlight.js
 * name or alias (`ts`, `typescript`, `golang`, `sh`…), case-insensitive. Returns the same text
 * (newlines kept, one output line per input line) with ANSI colour codes; an unknown or missing
 * language, or a grammar error, gives the code uncoloured. Never throws.
 */
export function highlightCode(code: string, language: string | undefined, theme: Theme): string {
  const name = language?.trim().toLowerCase();
  if (!name || code === '') return code;
  try {
    const ll = lowlight;
    if (!ll) {
      void loadHighlighter();
      return code;
    }
    if (!ll.registered(name)) return code;
    const tree: Root = ll.highlight(name, code);
    return paint(tree.children as ElementContent[], theme);
  } catch {
    return code;
  }
}

/** File extension (lower case, no dot) → highlight.js language. */
const LANGUAGE_BY_EXTENSION: Record<string, string> = {
  ts: 'typescript',
  tsx: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  js: 'javascript',
  jsx: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  json: 'json',
  jsonc: 'json',
  go: 'go',
  py: 'python',
  rs: 'rust',
  sh: 'bash',
  bash: 'bash',
  zsh: 'bash',
  md: 'markdown',
  markdown: 'markdown',
  css: 'css',
  scss: 'scss',
  less: 'less',
  html: 'xml',
  htm: 'xml',
  xml: 'xml',
  svg: 'xml',
  yaml: 'yaml',
  yml: 'yaml',
  toml: 'ini',
  ini: 'ini',
  c: 'c',
  h: 'c',
  cpp: 'cpp',
  cc: 'cpp',
  hpp: 'cpp',
  cs: 'csharp',
  java: 'java',
  kt: 'kotlin',
  swift: 'swift',
  rb: 'ruby',
  php: 'php',
  pl: 'perl',
  lua: 'lua',
  r: 'r',
  sql: 'sql',
  diff: 'diff',
  patch: 'diff',
  graphql: 'graphql',
  vb: 'vbnet',
  m: 'objectivec',
};

/** Whole file names with a language but no telling extension. */
const LANGUAGE_BY_FILE_NAME: Record<string, string> = {
  makefile: 'makefile',
  gnumakefile: 'makefile',
  '.bashrc': 'bash',
  '.zshrc': 'bash',
};

/** The highlight.js language for a file path by its extension (or name), or `undefined` when unknown. */
export function languageForPath(path: string): string | undefined {
  const name = path.split(/[\\/]/).pop()!.toLowerCase();
  const byName = LANGUAGE_BY_FILE_NAME[name];
  if (byName) return byName;
  const dot = name.lastIndexOf('.');
  if (dot < 0) return undefined;
  return LANGUAGE_BY_EXTENSION[name.slice(dot + 1)];
}
