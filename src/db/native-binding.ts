/**
 * better-sqlite3's `nativeBinding` option naming its addon's file. Without it better-sqlite3 asks the
 * `bindings` package, which finds the caller from an Error's stack and then tries a dozen build paths
 * one by one (~6 ms of every start). The file named here is where better-sqlite3's own build
 * (`node-gyp rebuild` or prebuild-install at install: `build/Release/better_sqlite3.node`) puts it;
 * when it is not there (another build layout), `bindings` is asked for the path in better-sqlite3's
 * folder. It must be found here: scripts/build.mjs bundles better-sqlite3's JavaScript into dist/ (its
 * code then comes from the V8 code cache), where `bindings` could no longer find the package from the
 * caller's file.
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
    const packageDir = path.dirname(localRequire.resolve('better-sqlite3/package.json'));
    const addon = path.join(packageDir, 'build', 'Release', 'better_sqlite3.node');
    const bindings = () =>
      (localRequire('bindings') as (options: object) => string)({
        bindings: 'better_sqlite3.node',
        module_root: packageDir,
        path: true,
      });
    found = { nativeBinding: existsSync(addon) ? addon : bindings() };
  } catch {
    found = {};
  }
  return found;
}
