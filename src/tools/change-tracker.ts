/**
 * The contract between the tool-call path and undo's snapshots: calls of tools that run
 * programs (`bash`, custom and MCP tools not marked read-only) go through a {@link ChangeTracker},
 * which snapshots the project before and after and records what the call changed, so undo can put it
 * back. The implementation is `undo/bash-changes.ts`; the app puts it in the coder's
 * `ToolContext.changeTracker`.
 */
import type { ChangeTracker, Tool, ToolContext } from './tool.js';

export type { ChangeTracker } from './context.js';

/** The result's `metadata` key listing why some of the call's changes cannot be undone (strings). */
export const UNTRACKED_CHANGES = 'untrackedChanges';

/**
 * Built-in tools that record their own exact changes (`FileHistory.recordWrite` with bytes): no
 * snapshot around them.
 */
export const RECORDS_OWN_CHANGES: ReadonlySet<string> = new Set(['edit', 'write', 'patch']);

/**
 * Whether a call of `tool` from `source` is snapshotted: every tool that may change files (not
 * read-only), except the built-ins of {@link RECORDS_OWN_CHANGES}.
 *
 * | tool | source | tracked |
 * |---|---|---|
 * | bash | builtin | yes: `sed -i`, `rm`, `git checkout`, a code generator |
 * | deploy (readOnly false) | project | yes: a custom tool runs a program |
 * | github_create_issue (no readOnlyHint) | mcp | yes: an MCP server may write files |
 * | edit, write, patch | builtin | no: they record their own bytes |
 * | view, grep, glob, ls | builtin | no: read-only |
 */
export function tracksChanges(tool: Pick<Tool, 'name' | 'readOnly'>, source: string): boolean {
  if (tool.readOnly) return false;
  return !(source === 'builtin' && RECORDS_OWN_CHANGES.has(tool.name));
}

/** The tracker in `ctx`, when the call of `tool` from `source` is to be tracked. */
export function changeTrackerFor(
  ctx: ToolContext,
  tool: Pick<Tool, 'name' | 'readOnly'>,
  source: string,
): ChangeTracker | undefined {
  const tracker = ctx.changeTracker;
  return tracker && tracksChanges(tool, source) ? tracker : undefined;
}
