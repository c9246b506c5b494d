// Build-time patches of Yoga's WebAssembly loader (yoga-layout/dist/binaries/yoga-wasm-base64-esm.js,
// Ink's layout engine), applied by scripts/build.mjs like its other dependency patches ({ filter,
// from, to } text replacements; the build fails when a `from` text is gone). Their own file so that
// test/tui/yoga-wasm-patch.test.ts can decode the embedded WebAssembly with and without them.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The loader file of the installed yoga-layout (its package exports neither this file nor package.json). */
export const YOGA_WASM_FILE = join(
  dirname(createRequire(import.meta.url).resolve('yoga-layout')),
  '..',
  'binaries',
  'yoga-wasm-base64-esm.js',
);
/** esbuild's filter for that file. */
export const YOGA_WASM = /yoga-layout[\\/]dist[\\/]binaries[\\/]yoga-wasm-base64-esm\.js$/;
export const YOGA_WASM_PATCHES = [
  // Yoga embeds its WebAssembly as a base64 data: URL and, when `fetch` exists, fetches that URL to
  // decode it: on Node that loads undici (Node's fetch) and runs a whole request before the TUI's
  // first frame (~0.1 s in a start-up profile). Its own synchronous decoder (the branch
  // taken where there is no fetch) is used instead.
  { from: 'function ya(){return w||"function"!=typeof fetch?', to: 'function ya(){return w||!0?' },
  // …and that decoder is atob and a copy loop over its ~70 kB: Node's native base64 decode gives the
  // same bytes in a tenth of the time (~7 ms less CPU before the TUI's first frame). The
  // data: URL's prefix, `data:application/octet-stream;base64,`, is 37 characters.
  {
    from: 'var b=xa(a.slice(37)),c=new Uint8Array(b.length);for(a=0;a<b.length;++a)c[a]=b.charCodeAt(a);var d=c',
    to: 'var d=new Uint8Array(Buffer.from(a.slice(37),"base64"))',
  },
];
