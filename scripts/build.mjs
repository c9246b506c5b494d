// Bundles src/cli/main.ts into dist/ (ESM, code-split so heavy modules load only when used).
// Native and binary-locating packages stay external: better-sqlite3 (a .node addon) and
// @vscode/ripgrep (finds its binary relative to its own files).
import { build } from 'esbuild';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { basename } from 'node:path';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
// dist/ is not emptied first: tests running in parallel may be executing it; stale chunks are pruned after
const result = await build({
  entryPoints: { cli: 'src/cli/main.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  legalComments: 'none',
  external: ['better-sqlite3', '@vscode/ripgrep', 'react-devtools-core'],
  define: { OPENCODE_VERSION: JSON.stringify(pkg.version) },
  banner: {
    // CommonJS dependencies bundled into ESM still call require() for Node built-ins
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  logLevel: 'warning',
  metafile: true,
});

const outputs = new Set(Object.keys(result.metafile.outputs).map((f) => basename(f)));
const dist = new URL('../dist/', import.meta.url);
for (const file of readdirSync(dist)) {
  if (!outputs.has(file)) rmSync(new URL(file, dist), { force: true });
}
