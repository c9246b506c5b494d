// Bundles the extension into dist/extension.js (CommonJS, as VS Code loads extensions); `vscode`
// is provided by the editor at run time. esbuild is the opencode repository's own dev dependency.
import { build } from 'esbuild';

await build({
  entryPoints: ['src/extension.ts'],
  outfile: 'dist/extension.js',
  bundle: true,
  platform: 'node',
  target: 'node18',
  format: 'cjs',
  external: ['vscode'],
  sourcemap: false,
  logLevel: 'warning',
});
