/** Workspace trust for the sub-commands that list or start the project's code. */
import type { LoadedSources, TrustDecision } from '../app/project-code.js';

/**
 * Whether the project's own code (plugins, custom tools, MCP servers) runs for a command that lists
 * or starts it (`mcp list`, `tools`, `stats`), decided as for a session; a refusal and what was held
 * back are said on stderr. The trust module (and the config schema it needs) loads only when a
 * command asks, so `stats` without plugins stays light.
 */
export async function decideTrustForCommand(
  loaded: LoadedSources,
  cwd: string,
  trustFlag: boolean | undefined,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<TrustDecision> {
  const { decideTrust, heldLine } = await import('../app/project-code.js');
  const trust = decideTrust(loaded, cwd, env, { trustFlag });
  if (trust.refusal) process.stderr.write(`opencode: ${trust.refusal}\n`);
  if (!trust.trusted) process.stderr.write(`opencode: ${heldLine(trust.items, env)}\n`);
  return trust;
}
