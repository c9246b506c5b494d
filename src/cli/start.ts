/**
 * dist/start.cjs, what `bin/opencode` requires for everything but `--version`: runs the command's
 * files (dist/*.cjs, next to this one once built) from their V8 code cache (code-cache.ts).
 */
import { startWithCodeCache } from './code-cache.js';

/** The command's entry file in dist/ (without `.cjs`), set by scripts/build.mjs. */
declare const CLI_ENTRY: string;

startWithCodeCache(__dirname, CLI_ENTRY, process.argv.slice(2));
