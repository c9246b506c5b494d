/**
 * A process started by a command that ran in another opencode's sandbox is inside that sandbox: every
 * process started there stays in it. bubblewrap cannot build a sandbox inside another one (no
 * namespaces can be made without the capabilities it dropped), so an opencode started there (the model
 * running `opencode -p` through bash) keeps the outer one instead: its commands run as they are, still
 * contained by the outer sandbox, and `"sandbox": "required"` is met.
 *
 * The outer run says which level the command ran at in {@link OUTER_SANDBOX_ENV}, beside
 * `OPENCODE_SANDBOXED=1`. It is read only when no sandbox can start here: a process that could build
 * its own always does, so setting the variable by hand cannot take anything out of a sandbox.
 */
import type { SandboxLevel } from './types.js';

/** The level (`strict` or `network`) the outer opencode ran this process's command at, in its sandbox. */
export const OUTER_SANDBOX_ENV = 'OPENCODE_SANDBOX_LEVEL';

/** The variables a sandboxed command gets: the marker of a nested run and its level. */
export function outerSandboxEnv(level: Exclude<SandboxLevel, 'none'>): Record<string, string> {
  return { OPENCODE_SANDBOXED: '1', [OUTER_SANDBOX_ENV]: level };
}

/** The outer sandbox this process runs in, by what its environment says; undefined when none. */
export function outerSandboxLevel(
  env: Readonly<Record<string, string | undefined>> = process.env,
): 'strict' | 'network' | undefined {
  if (env.OPENCODE_SANDBOXED !== '1') return undefined;
  const level = env[OUTER_SANDBOX_ENV];
  return level === 'strict' || level === 'network' ? level : undefined;
}
