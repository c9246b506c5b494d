/**
 * better-sqlite3's `nativeBinding` option naming its addon's file. Without it better-sqlite3 asks the
 * `bindings` package, which finds the caller from an Error's stack and then tries a dozen build paths
 * one by one (~6 ms of every start: issue 16). The file named here is where better-sqlite3's own build
 * (`node-gyp rebuild` at install: `build/Release/better_sqlite3.node`) puts it; when it is not there
 * (another build layout), the option is left out and `bindings` searches as before.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const localRequire = createRequire(import.meta.url);
let found: { nativeBinding?: string } | undefined;

/** `{ nativeBinding: <addon path> }` to spread into better-sqlite3's options, or `{}`; looked up once. */
export function nativeBinding(): { nativeBinding?: string } {
  if (found) return found;
  try {
    const addon = path.join(path.dirname(localRequire.resolve('better-sqlite3/package.json')), 'build', 'Release', 'better_sqlite3.node');
    found = existsSync(addon) ? { nativeBinding: addon } : {};
  } catch {
    found = {};
  }
  return found;
}
