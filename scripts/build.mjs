// Bundles into dist/, code-split so heavy modules load only when used: the package's exports as ESM;
// the command (src/cli/main.ts) as CommonJS scripts and their loader dist/start.cjs (bin/opencode).
// Binary-locating packages stay external: @vscode/ripgrep (finds its binary relative to its own
// files); better-sqlite3's addon is opened by its path (src/db/native-binding.ts).
import { build, transform } from 'esbuild';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { ANSI_STYLED_CHARS, ANSI_TOKENIZE_PATCHES } from './ansi-tokenize-patch.mjs';
import { INK_OUTPUT_PATCHES } from './ink-output-patch.mjs';
import { STRING_WIDTH, STRING_WIDTH_PATCHES } from './string-width-patch.mjs';
import { SIGNAL_EXIT_3, SIGNAL_EXIT_PATCHES } from './signal-exit-patch.mjs';
import { YOGA_WASM, YOGA_WASM_PATCHES } from './yoga-wasm-patch.mjs';
import { createHash } from 'node:crypto';

// Ink 6.8's incremental renderer moves the cursor up one line too few when the previous frame ended
// with a newline (every frame shorter than the terminal does), so each frame after the first is drawn
// one line lower and the screen scrolls. The other branch of the same function counts that line
// (`extraSlot`); this makes both agree. The build fails if the line is gone (fixed upstream, or moved).
const INK_LOG_UPDATE = /ink[\\/]build[\\/]log-update\.js$/;
const INK_BUGGY = 'buffer.push(ansiEscapes.cursorUp(previousVisible - 1));';
const INK_FIXED = "buffer.push(ansiEscapes.cursorUp(previousVisible - 1 + (previousOutput.endsWith('\\n') ? 1 : 0)));";
// Ink redraws in full after a resize only when the width shrank; otherwise it diffs against a frame
// the terminal no longer shows (the TUI clears the screen when a resize settles, src/tui/output.ts).
// And it redraws at once, with the widths of the last React render: lines wider than the narrower
// terminal wrap, and every later frame is diffed against that wrapped screen. Here a resize only
// makes Ink forget its last frame; the app re-renders at the new size (it listens for the same
// event) and that render is drawn in full.
const INK_MAIN = /ink[\\/]build[\\/]ink\.js$/;
const COMMANDER_COMMAND = /commander[\\/]lib[\\/]command\.js$/;
const INK_RESIZE = `if (currentWidth < this.lastTerminalWidth) {
            // We clear the screen when decreasing terminal width to prevent duplicate overlapping re-renders.
            this.log.clear();
            this.lastOutput = '';
            this.lastOutputToRender = '';
        }
        this.calculateLayout();
        this.onRender();
        this.lastTerminalWidth = currentWidth;`;
const INK_RESIZE_FIXED = `this.log.clear();
        this.lastOutput = '';
        this.lastOutputToRender = '';
        this.lastTerminalWidth = currentWidth;`;
const patches = [
  ...SIGNAL_EXIT_PATCHES.map((patch) => ({ filter: SIGNAL_EXIT_3, ...patch })),
  ...STRING_WIDTH_PATCHES.map((patch) => ({ filter: STRING_WIDTH, ...patch })),
  ...ANSI_TOKENIZE_PATCHES.map((patch) => ({ filter: ANSI_STYLED_CHARS, ...patch })),
  ...INK_OUTPUT_PATCHES,
  { filter: INK_LOG_UPDATE, from: INK_BUGGY, to: INK_FIXED },
  { filter: INK_MAIN, from: INK_RESIZE, to: INK_RESIZE_FIXED },
  ...YOGA_WASM_PATCHES.map((patch) => ({ filter: YOGA_WASM, ...patch })),
  // commander requires node:child_process as it loads, for executable sub-commands (`git-style`), which
  // opencode has none of: loaded when first used instead. Before, it was on every command's path to the
  // TUI's skeleton frame, ~20 ms there (it pulls in net, streams and dgram; the TUI's V8 flag makes Node
  // compile its modules from source: bin/opencode)
  {
    filter: COMMANDER_COMMAND,
    from: "const childProcess = require('node:child_process');",
    to: "let childProcessModule; const childProcess = { spawn: (...args) => (childProcessModule ??= require('node:child_process')).spawn(...args) };",
  },
];
// The command's files are CommonJS (a V8 code cache needs scripts, src/cli/code-cache.ts), which have
// no top-level await. Three modules on the TUI's path use it: Yoga awaits its WebAssembly (instantiated
// here synchronously instead: the same bytes, `new WebAssembly.Instance`), and Ink's reconciler awaits
// react-devtools and its package.json only when DEV=true (a development aid, not installed: Ink's own
// "react-devtools-core is not installed" branch is taken).
const YOGA_INDEX = /yoga-layout[\\/]dist[\\/]src[\\/]index\.js$/;
const INK_RECONCILER = /ink[\\/]build[\\/]reconciler\.js$/;
const noTopLevelAwait = [
  {
    filter: YOGA_INDEX,
    from: 'const Yoga = wrapAssembly(await loadYoga());',
    to: 'const yogaModule = {}; loadYoga(yogaModule); const Yoga = wrapAssembly(yogaModule);',
  },
  {
    filter: YOGA_WASM,
    from: 'function c(e){return ya().then(function(f){return WebAssembly.instantiate(f,d)})',
    to: 'function c(e){e({instance:new WebAssembly.Instance(new WebAssembly.Module(wa()),d)});return Promise.resolve();return ya().then(function(f){return WebAssembly.instantiate(f,d)})',
  },
  {
    filter: INK_RECONCILER,
    from: "await import('./devtools.js');",
    to: "throw Object.assign(new Error('no devtools'), { code: 'ERR_MODULE_NOT_FOUND' });",
  },
  { filter: INK_RECONCILER, from: '? await loadPackageJson()', to: "? { name: 'ink', version: undefined }" },
];
/** An esbuild plugin applying `list`'s text replacements; the build fails when a text is gone. */
const patching = (list) => ({
  name: 'patch-dependencies',
  setup(b) {
    for (const filter of new Set(list.map((p) => p.filter))) {
      b.onLoad({ filter }, (args) => {
        let source = readFileSync(args.path, 'utf8');
        for (const patch of list.filter((p) => p.filter === filter)) {
          if (!source.includes(patch.from))
            throw new Error(`${args.path} changed: review the patches in scripts/build.mjs`);
          source = source.replace(patch.from, patch.to);
        }
        return { contents: source, loader: 'js' };
      });
    }
  },
});
const patchInk = patching(patches);

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
// dist/ is not emptied first: tests running in parallel may be executing it; stale chunks are pruned after
const shared = {
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  legalComments: 'none',
  // jiti finds its TypeScript transform relative to its own files (plugins). better-sqlite3's
  // JavaScript is bundled (13 files the CommonJS loader would resolve and compile at every start: its
  // code comes from the V8 code cache instead, ~15 ms of the TUI's start); its addon is
  // loaded by path (src/db/native-binding.ts), and stays in node_modules
  external: ['@vscode/ripgrep', 'react-devtools-core', 'jiti'],
  // jsonc-parser's `main` is a UMD build whose require('./impl/format') esbuild cannot follow (the
  // bundle then fails at run time: "Cannot find module './impl/format'"); its `module` build is ESM
  alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
  logLevel: 'warning',
  metafile: true,
};
// The config code's fingerprint: the TUI reuses a remembered config check only from the same code
// (src/cli/tui-config.ts): every file of src/config/ and zod's version
const configFingerprint = createHash('sha1');
for (const file of readdirSync(new URL('../src/config/', import.meta.url))
  .filter((f) => f.endsWith('.ts'))
  .sort()) {
  configFingerprint.update(`${file}\0`).update(readFileSync(new URL(`../src/config/${file}`, import.meta.url)));
}
configFingerprint.update(
  JSON.parse(readFileSync(new URL('../node_modules/zod/package.json', import.meta.url), 'utf8')).version,
);
// React's production build: its development build checks and logs on every render (and is slower)
const define = {
  OPENCODE_VERSION: JSON.stringify(pkg.version),
  OPENCODE_CONFIG_FINGERPRINT: JSON.stringify(configFingerprint.digest('hex').slice(0, 16)),
  'process.env.NODE_ENV': '"production"',
};
const result = await build({
  ...shared,
  // the package's `exports` (`opencode/plugin` for plugins, `opencode` for the runtime API)
  entryPoints: { plugin: 'src/plugin/api.ts', index: 'src/api/index.ts' },
  splitting: true,
  format: 'esm',
  define,
  banner: {
    // CommonJS dependencies bundled into ESM still call require() for Node built-ins
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  plugins: [patchInk],
});
// The command (bin/opencode), code-split like the exports but as CommonJS scripts (`.cjs`), so that it
// can start from a V8 code cache (src/cli/code-cache.ts; ES modules take none in Node 20): esbuild
// splits it as ESM, then each file is turned into CommonJS and wrapped in a function expression the
// loader compiles with `vm.Script`; an import of another file of the split becomes `__chunk(name)`,
// which loads it through the same cache (a dynamic import becomes a promise of it).
const cliSplit = await build({
  ...shared,
  entryPoints: { cli: 'src/cli/main.ts' },
  entryNames: '[name]-[hash]',
  splitting: true,
  format: 'esm',
  sourcemap: false,
  write: false,
  define,
  plugins: [patching([...patches, ...noTopLevelAwait])],
});
const splitNames = new Set(cliSplit.outputFiles.map((f) => basename(f.path, '.js')));
const chunkRef = (name) => {
  if (!splitNames.has(name)) throw new Error(`scripts/build.mjs: "${name}.js" is not a file of the split`);
  return `__chunk(${JSON.stringify(name)})`;
};
const cliFiles = [];
for (const file of cliSplit.outputFiles) {
  const name = basename(file.path, '.js');
  const { code } = await transform(file.text, {
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    define: { 'import.meta.url': '__importMetaUrl' },
    logLevel: 'warning',
  });
  const body = code
    .replace(/\brequire\("\.\/([\w-]+)\.js"\)/g, (_, ref) => chunkRef(ref))
    .replace(/\bimport\("\.\/([\w-]+)\.js"\)/g, (_, ref) => `Promise.resolve().then(() => ${chunkRef(ref)})`)
    // Code V8 takes from a cache made by vm.Script cannot import() (Node 20: "A dynamic import callback
    // was not specified", even with vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER), so an import() of a
    // built-in, a package or a file (plugins, custom tools) goes through `__import`, the loader's own
    // import(): dist/start.cjs sits beside these files, so specifiers resolve the same. Only a call in
    // code position is taken (after a space, bracket or operator); a quoted mention is left alone.
    .replace(/(?<=[\s(=,[:!&|?;{}>])import\((?=["'`\w])/g, '__import(');
  if (/\b(require|import)\("\.\/[^"]+\.js"\)/.test(body))
    throw new Error(`scripts/build.mjs: ${name}.js imports a relative path that is not a file of the split`);
  // what is left must be quoted text or a comment (`import('node:buffer')` in a message, a JSDoc type)
  for (const m of body.matchAll(/(?<![\w$.])import\(/g)) {
    const before = body.slice(body.lastIndexOf('\n', m.index) + 1, m.index);
    if (!/[`'"]$/.test(before) && !/^\s*(\*|\/\/)/.test(before))
      throw new Error(`scripts/build.mjs: ${name}.js: an import() the rewrite missed: ${before.slice(-60)}import(`);
  }
  const wrapped = `(function (exports, require, module, __filename, __dirname, __chunk, __import) {var __importMetaUrl = require('node:url').pathToFileURL(__filename).href;\n${body}\n})`;
  writeFileSync(new URL(`../dist/${name}.cjs`, import.meta.url), wrapped);
  cliFiles.push(`${name}.cjs`);
}
const cliEntry = [...splitNames].find((n) => n.startsWith('cli-'));
// the loader bin/opencode requires
const start = await build({
  ...shared,
  entryPoints: { start: 'src/cli/start.ts' },
  format: 'cjs',
  outExtension: { '.js': '.cjs' },
  define: { CLI_ENTRY: JSON.stringify(cliEntry) },
});

const outputs = new Set([
  ...[result, start].flatMap((r) => Object.keys(r.metafile.outputs)).map((f) => basename(f)),
  ...cliFiles,
]);
const dist = new URL('../dist/', import.meta.url);
for (const file of readdirSync(dist)) {
  // types/ holds the declarations `npm run build:types` writes (tsconfig.types.json), not esbuild's output
  if (file !== 'types' && !outputs.has(file)) rmSync(new URL(file, dist), { force: true });
}
