/**
 * A private copy of `bin/opencode` and `dist/` for one benchmark: helpers and test runs rebuild
 * dist/ in the working tree at any time (test/global-setup.ts), and a rebuild between two spawns
 * makes the later one fail on a chunk that no longer exists. The copy sits in a temp folder whose
 * `node_modules` links to the project's, so the externals (better-sqlite3, jiti, …) resolve as before.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');

/** Copies bin/, dist/ and package.json now; `bin` is the copied `bin/opencode`. */
export function snapshotBin(): { bin: string; dispose(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'opencode-bench-bin-'));
  mkdirSync(join(dir, 'bin'));
  // bin/package.json too: it makes bin/opencode CommonJS
  cpSync(join(ROOT, 'bin'), join(dir, 'bin'), { recursive: true });
  cpSync(join(ROOT, 'dist'), join(dir, 'dist'), { recursive: true });
  cpSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return { bin: join(dir, 'bin', 'opencode'), dispose: () => rmSync(dir, { recursive: true, force: true }) };
}
