/**
 * V8 flags a run sets after it started (`v8.setFlagsFromString`), and the files the code cache loaded
 * since.
 *
 * V8 rejects code cached under other flags (the cache's flag hash no longer matches), so the code cache
 * (code-cache.ts) keys the code of a file loaded after such a flag apart from the same file loaded
 * without it: two runs of one kind, one setting the flag (a `-p` run with a remote MCP server) and one
 * not, then each find their own code instead of compiling and overwriting the other's. The list lives on
 * `globalThis` because dist/start.cjs (the code cache) and the command's files are separate bundles,
 * each with its own copy of this module.
 */

const STATE = Symbol.for('opencode.v8-flags-set-at-run-time');

interface State {
  /** the flags set so far, space-separated in order */
  flags: string;
  /** called before each flag is set */
  beforeChange: (() => void)[];
}

function state(): State {
  const g = globalThis as typeof globalThis & { [STATE]?: State };
  return (g[STATE] ??= { flags: '', beforeChange: [] });
}

/**
 * Sets `flag` (e.g. `--liftoff-only`) in V8 and records it, after calling the {@link beforeV8FlagChange}
 * listeners. `v8`: the `node:v8` module, passed in so that the runs that never set a flag do not load
 * it (~1.5 ms of CPU).
 */
export function setV8FlagAtRunTime(v8: Pick<typeof import('node:v8'), 'setFlagsFromString'>, flag: string): void {
  const s = state();
  for (const listener of s.beforeChange) listener();
  v8.setFlagsFromString(flag);
  s.flags = s.flags ? `${s.flags} ${flag}` : flag;
}

/** The flags set by {@link setV8FlagAtRunTime} so far, space-separated in order; '' when none. */
export function v8FlagsSetAtRunTime(): string {
  return state().flags;
}

/**
 * Calls `listener` before each flag {@link setV8FlagAtRunTime} sets: the last moment code can be
 * serialised under the flags it was compiled under (V8 stamps it with the flags of that moment).
 */
export function beforeV8FlagChange(listener: () => void): void {
  state().beforeChange.push(listener);
}
