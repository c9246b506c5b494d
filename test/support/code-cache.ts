/**
 * Runs of bin/opencode against a code cache of their own (src/cli/code-cache.ts), each with its own
 * start-up trace, and what that trace says of the cache.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanEnv, runCli, type CliRun } from './cli.js';
import { closedPort } from './ports.js';

/** What a run's start-up trace says of the code cache: files whose code came from it, and files compiled. */
export interface CacheCounts {
  fromCache: number;
  compiled: number;
}

/**
 * The counts of the `code cache (…): N files from the cache, M compiled` line of the trace file.
 * @throws Error holding the trace when it has no such line (a run that failed saves nothing)
 */
export function cacheCounts(traceFile: string): CacheCounts {
  const text = readFileSync(traceFile, 'utf8');
  const m = /(\d+) files from the cache, (\d+) compiled/.exec(text);
  if (!m) throw new Error(`no code cache line in the trace:\n${text}`);
  return { fromCache: Number(m[1]), compiled: Number(m[2]) };
}

/** A run of {@link cachedRuns}: its result, its trace file, and the trace's cache counts (read when asked). */
export type CachedRun = CliRun & { trace: string; counts: () => CacheCounts };

/**
 * A temp folder (`dir`) with a cache folder in it (`cacheDir`, made by the first run), and `run`, which
 * runs `bin/opencode args…` in `options.cwd` (default `dir`) with that cache, a trace of its own and
 * `options.env` added to a clean environment.
 */
export function cachedRuns(prefix: string): {
  dir: string;
  cacheDir: string;
  run: (args: string[], options?: { cwd?: string; env?: Record<string, string> }) => Promise<CachedRun>;
} {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const cacheDir = join(dir, 'cache');
  let n = 0;
  return {
    dir,
    cacheDir,
    run: async (args, options = {}) => {
      const trace = join(dir, `trace-${++n}.txt`);
      const env = cleanEnv({ OPENCODE_CODE_CACHE_DIR: cacheDir, OPENCODE_STARTUP_TRACE: trace, ...options.env });
      const result = await runCli(args, { cwd: options.cwd ?? dir, env });
      return { ...result, trace, counts: () => cacheCounts(trace) };
    },
  };
}

/**
 * A project folder in `parent` whose .opencode.json names one remote MCP server of `type` on a port
 * nothing listens on: it fails to connect, with a warning, and a prompt still runs (and -p sets
 * `--liftoff-only` for it: src/cli/run-prompt.ts).
 */
export async function remoteMcpProject(parent: string, type: 'http' | 'sse'): Promise<string> {
  const dir = mkdtempSync(join(parent, 'remote-mcp-'));
  writeFileSync(
    join(dir, '.opencode.json'),
    JSON.stringify({
      mcpServers: { gone: { type, url: `http://127.0.0.1:${await closedPort()}/${type === 'http' ? 'mcp' : 'sse'}` } },
    }),
  );
  return dir;
}
