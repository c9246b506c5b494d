/** Builds dist/ once before the suite, so tests that run bin/opencode test the current source. */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

export default function setup(): void {
  execFileSync(process.execPath, [join(import.meta.dirname, '..', 'scripts', 'build.mjs')], { stdio: 'inherit' });
}
