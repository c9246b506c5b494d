/**
 * An opencode started by another opencode's command: the bash tool's commands (and the programs opencode
 * starts for a project: declarative tools, MCP and language servers) carry {@link NESTED_RUN_ENV} in their
 * environment. An `opencode` they start is a run the person never saw being started, so it decides
 * nothing in their place: what would ask is refused, never approved by `-p`'s unattended mode, and the
 * commands it runs stay inside the sandbox its parent's command ran in (the sandbox holds every process
 * started inside it; the variable only tells the inner run not to widen what it allows).
 *
 * The variable is a marker, not a lock: a command can remove it from what it starts. What holds then is
 * the operating system's sandbox around the outer command; the marker keeps an inner run from approving
 * by itself what its parent would have asked the person about.
 */

/** The variable that marks a process as started by an opencode command (value `1`). */
export const NESTED_RUN_ENV = 'OPENCODE_SANDBOXED';

/** The environment the outer run adds to everything it starts on the model's or a project's behalf. */
export const NESTED_RUN_MARK: Readonly<Record<string, string>> = { [NESTED_RUN_ENV]: '1' };

/** Whether `env` marks this process as started by another opencode's command. */
export function isNestedRun(env: Readonly<Record<string, string | undefined>> = process.env): boolean {
  const value = env[NESTED_RUN_ENV];
  return value !== undefined && value !== '' && value !== '0';
}

/** The reason a nested run refuses a call that would ask, for the model (one sentence, ends without a period). */
export function nestedRefusal(description: string): string {
  return (
    `Permission denied: this opencode was started by another opencode's command (${NESTED_RUN_ENV}=1), ` +
    `so it approves nothing by itself and this call needs approval: ${description}`
  );
}
