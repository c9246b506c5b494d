// Bundles src/cli/main.ts into dist/ (ESM, code-split so heavy modules load only when used).
// Native and binary-locating packages stay external: better-sqlite3 (a .node addon) and
// @vscode/ripgrep (finds its binary relative to its own files).
import { build } from 'esbuild';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { basename } from 'node:path';

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
// Yoga (Ink's layout engine) embeds its WebAssembly as a base64 data: URL and, when `fetch` exists,
// fetches that URL to decode it: on Node that loads undici (Node's fetch) and runs a whole request
// before the TUI's first frame (~0.1 s in a start-up profile, issue 16). Its own synchronous decoder
// (the branch taken where there is no fetch) is used instead.
const YOGA_WASM = /yoga-layout[\\/]dist[\\/]binaries[\\/]yoga-wasm-base64-esm\.js$/;
const YOGA_FETCH = 'function ya(){return w||"function"!=typeof fetch?';
const YOGA_NO_FETCH = 'function ya(){return w||!0?';
const patches = [
  { filter: INK_LOG_UPDATE, from: INK_BUGGY, to: INK_FIXED },
  { filter: INK_MAIN, from: INK_RESIZE, to: INK_RESIZE_FIXED },
  { filter: YOGA_WASM, from: YOGA_FETCH, to: YOGA_NO_FETCH },
];
const patchInk = {
  name: 'patch-ink',
  setup(b) {
    for (const patch of patches) {
      b.onLoad({ filter: patch.filter }, (args) => {
        const source = readFileSync(args.path, 'utf8');
        if (!source.includes(patch.from)) throw new Error(`${args.path} changed: review the patches in scripts/build.mjs`);
        return { contents: source.replace(patch.from, patch.to), loader: 'js' };
      });
    }
  },
};

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
// dist/ is not emptied first: tests running in parallel may be executing it; stale chunks are pruned after
const result = await build({
  // plugin.js and index.js are the package's `exports` (`opencode/plugin`, `opencode`: issue 11)
  entryPoints: { cli: 'src/cli/main.ts', plugin: 'src/plugin/api.ts', index: 'src/api/index.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  legalComments: 'none',
  // jiti finds its TypeScript transform relative to its own files (plugins, issue 11)
  external: ['better-sqlite3', '@vscode/ripgrep', 'react-devtools-core', 'jiti'],
  // jsonc-parser's `main` is a UMD build whose require('./impl/format') esbuild cannot follow (the
  // bundle then fails at run time: "Cannot find module './impl/format'"); its `module` build is ESM
  alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
  // React's production build: its development build checks and logs on every render (and is slower)
  define: { OPENCODE_VERSION: JSON.stringify(pkg.version), 'process.env.NODE_ENV': '"production"' },
  banner: {
    // CommonJS dependencies bundled into ESM still call require() for Node built-ins
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  logLevel: 'warning',
  metafile: true,
  plugins: [patchInk],
});

const outputs = new Set(Object.keys(result.metafile.outputs).map((f) => basename(f)));
const dist = new URL('../dist/', import.meta.url);
for (const file of readdirSync(dist)) {
  // types/ holds the declarations `npm run build:types` writes (tsconfig.types.json), not esbuild's output
  if (file !== 'types' && !outputs.has(file)) rmSync(new URL(file, dist), { force: true });
}
