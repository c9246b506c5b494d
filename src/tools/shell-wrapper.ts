/**
 * The script the session shell (`shell.ts`) runs each command in, and the text it writes for the shell
 * to source. The wrapper restores the saved state, runs the command, saves the state again (exported
 * variables, directory, exit status) and ends the command's process group when the agent dies.
 */

/** Writes the state the next command restores: exported variables, directory, exit status (`$__oc_rc`). */
const SAVE_STATE =
  '{ command -p env -0 > "$__oc_state.env"; command pwd > "$__oc_state.cwd"; ' +
  'printf "%s\\n" "$__oc_rc" > "$__oc_state.status"; } 2>/dev/null';

/**
 * Ends the shell's whole process group when the agent dies (after a kill -9 the
 * command and everything it started kept running). fd 3 is a socket whose other end only the agent
 * holds; a background member of the group blocks reading it, and its end-of-file, which the kernel
 * delivers whatever killed the agent, makes it kill the group. Portable (no prctl or setpriv needed)
 * and it reaches the command's children too, which a parent-death signal on the shell alone would
 * not. The command itself runs with fd 3 closed. When the command ends the watcher is stopped, unless
 * the shell still has background jobs (`npm run dev &`): it then stays to end them with the agent.
 * Jobs the shell does not know (`(cmd &)`, `nohup` from a subshell, jobs under dash, which lists no
 * jobs to a subshell) lose their watcher and are ended by the next start (app/leftovers.ts).
 */
const WATCH_AGENT =
  'if { : <&3; } 2>/dev/null; then { command read -r __oc_x <&3; command kill -KILL 0; } </dev/null >/dev/null 2>&1 & ' +
  '__oc_wd=$!; exec 3<&-; fi';

/** Stops the watcher of {@link WATCH_AGENT} when the command left no background job of the shell behind. */
const STOP_WATCHING =
  '{ if [ -n "${__oc_wd-}" ]; then __oc_keep=; for __oc_j in $(command jobs -p); do [ "$__oc_j" = "$__oc_wd" ] || __oc_keep=1; done; ' +
  '[ -n "$__oc_keep" ] || command kill "$__oc_wd"; fi; } 2>/dev/null';

/**
 * Runs inside the shell: `$1` the input file (the environment snapshot, then `__oc_cmd='…'`), `$2`
 * directory, `$3` state file prefix. POSIX sh only, so it works with dash too (tested; zsh untested).
 *
 * - The state files exist already (empty, mode 0600, made by the agent), so `>` keeps them private
 *   without a `umask` that the command would inherit.
 * - The command comes in a file, not as an argument: an argument over 128 KB fails with `E2BIG`.
 *   The input file holds the environment (without our credentials, but the person's own variables),
 *   so it is private and removed once sourced.
 * - The state is saved right after the command, in the same shell, so a `trap … EXIT` of the command
 *   (which replaces ours) doesn't lose its `cd` and exports; the EXIT trap still saves when the
 *   command runs `exit`, and the TERM trap turns a timeout into such an exit.
 * - `command` bypasses functions the command may have defined with those names.
 * - CDPATH is unset before each command (one inherited or exported earlier would send `cd src`
 *   elsewhere than the permission check thought).
 * - One line, so that bash reports a syntax error in the command without a misleading `eval: line N`.
 */
export const COMMAND_WRAPPER = [
  '__oc_in=$1; __oc_dir=$2; __oc_state=$3; shift 3',
  WATCH_AGENT,
  '. "$__oc_in" 2>/dev/null',
  'command rm -f -- "$__oc_in" 2>/dev/null',
  'PWD=$__oc_dir', // the snapshot's PWD may name a directory that is gone (we then started elsewhere)
  // `cd name` must mean ./name: the permission check resolves paths so; a CDPATH set in the line is seen there
  'unset CDPATH',
  `trap '__oc_rc=$?; ${`${STOP_WATCHING}; ${SAVE_STATE}`.replaceAll("'", "'\\''")}; exit $__oc_rc' EXIT`,
  "trap 'exit 143' TERM",
  'eval "$__oc_cmd"',
  `__oc_rc=$?; ${STOP_WATCHING}; ${SAVE_STATE}; exit $__oc_rc`,
].join('; ');

/** `export NAME='value'` lines; names that are not shell identifiers can't be exported by a shell. */
export function exportScript(env: Record<string, string>): string {
  return Object.entries(env)
    .filter(([name]) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
    .map(([name, value]) => `export ${name}='${value.replaceAll("'", "'\\''")}'\n`)
    .join('');
}

/**
 * Drops the lines bash prints when the job we killed dies (`Terminated`,
 * `bash: line 1:  4242 Killed  sleep 300`): the result already says the command was stopped.
 */
export function withoutKillReports(stderr: string): string {
  return stderr.replace(/(?:^|\n)(?:[^\n]*line \d+: +\d+ +)?(?:Terminated|Killed)(?: [^\n]*)?(?=\n|$)/g, '');
}
