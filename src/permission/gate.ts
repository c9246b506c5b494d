/**
 * The gate every tool call passes before the tool runs, whatever the tool's source (built-in, MCP,
 * declarative, plugin, runtime): the rules keyed by the tool's name are applied here, so a `deny`
 * rule holds even for a tool that never asks. A pure function; the service (`service.ts` `gate`)
 * holds the rules, and the one execution path (`agent/tool-calls.ts`) acts on the verdict.
 *
 * What a tool does about permission itself decides what is left for the gate:
 *
 * | `asks`    | e.g.                                         | a `deny` rule                               | an `ask` rule                         |
 * |-----------|----------------------------------------------|---------------------------------------------|---------------------------------------|
 * | `subject` | bash, edit, write, patch, fetch              | refused here when it denies every subject¹  | the tool's own request asks           |
 * | `call`    | MCP tools, declarative tools that change things | refused here                             | the tool's own request asks           |
 * | omitted   | view, grep, plugin and runtime tools, read-only declarative tools | refused here           | asked here, once²                     |
 *
 * ¹ no later rule of the tool allows or asks for some subject: `"bash": {"*": "deny", "ls*": "allow"}`
 *   is left to the command. ² the tool's own requests without a subject in that call are answered by
 *   that answer (`agent/tool-calls.ts`), so a plugin that asks is not asked twice.
 *
 * With no rule for the tool the gate lets it run, and the tool behaves as it always did: reads run,
 * a plugin's `ask` asks. An `allow` rule lets it run, and the tool's own requests meet the same rule.
 */
import { evaluatePermission } from './policy.js';
import { lastMatchingRule, wildcardMatch } from './rules.js';
import type { PermissionRule } from './types.js';

/**
 * How a tool asks for permission itself, before it changes anything: `subject` — every call, with
 * what it touches (a command, files, a URL), which rules are matched against; `call` — every call, as
 * a whole. Omitted: it may never ask (reads; plugin and runtime tools ask only if their code does).
 */
export type ToolAsks = 'subject' | 'call';

/** The gate's verdict: run the tool (it may still ask itself), ask once before it runs, or refuse it with `message` (the model is told; the turn goes on). */
export type GateVerdict = { action: 'run' } | { action: 'ask' } | { action: 'deny'; message: string };

/** Decides, before it runs, a call of the tool `toolName`, which asks as `asks` says, under `rules` (in order; the last match wins). */
export function gateVerdict(
  toolName: string,
  asks: ToolAsks | undefined,
  rules: readonly PermissionRule[],
): GateVerdict {
  // only rules for the tool as a whole (pattern `*`) match without a subject
  const rule = lastMatchingRule(rules, toolName, []);
  if (!rule) return { action: 'run' };
  if (rule.action === 'deny') {
    // `"bash": {"*": "deny", "ls*": "allow"}` denies most commands but not `ls`: the subject decides
    if (
      asks === 'subject' &&
      rules.slice(rules.lastIndexOf(rule) + 1).some((r) => r.action !== 'deny' && wildcardMatch(r.tool, toolName))
    ) {
      return { action: 'run' };
    }
    const verdict = evaluatePermission(toolName, undefined, { rules, grants: [], cwd: '/' });
    return verdict.action === 'deny' ? verdict : { action: 'run' };
  }
  if (rule.action === 'ask' && asks === undefined) return { action: 'ask' };
  return { action: 'run' };
}
