/**
 * What the agent is doing right now, in a few words, for the pulse line above the editor:
 * `Thinking…` while a request waits, `Running bash: npm test` while a tool runs, `Retrying in
 * 8 s (overloaded)` while the provider backs off. Pure: derived from the session's items, the
 * permission request waiting and the retry the provider announced; the store keeps the result in
 * its state and the Pulse component adds the spinner, the elapsed time and the countdown.
 */
import type { PermissionRequest } from '../../permission/types.js';
import type { ChatItem, ToolCallView } from './chat-item.js';
import { toolKeyParam, toolTitle, TOOL_VIEWS } from '../render/tool-view.js';

/** The provider waits before trying the request again (`provider.retry`). */
export interface RetryWait {
  /** unix ms the wait ends */
  untilMs: number;
  /** why, as the provider layer words it: `overloaded (HTTP 529)`, `rate limited (HTTP 429)` */
  reason: string;
  /** 1 for the first retry */
  attempt: number;
  maxRetries: number;
}

/** The pulse's content; a new object only when something shown changes. */
export interface Activity {
  /** what is happening, e.g. `Running bash: npm test` */
  label: string;
  /** unix ms the run (or compaction) started: the pulse shows the time since */
  startedAt: number;
  /** set while the provider waits to retry: the pulse counts down to `untilMs` */
  retry?: RetryWait;
}

/**
 * The labels, by state (policy as data). A state's example is what the pulse then shows.
 */
export const ACTIVITY_LABELS = {
  /** the request is sent and nothing came back yet, or the tools finished and the next request waits: `Thinking…` */
  waiting: 'Thinking…',
  /** reasoning streams: `Thinking…` */
  thinking: 'Thinking…',
  /** the reply's text streams: `Writing…` */
  writing: 'Writing…',
  /** the model writes a tool call's input: `Preparing edit: src/app.ts` */
  preparing: (tool: string, param: string) => (param ? `Preparing ${tool}: ${param}` : `Preparing ${tool}…`),
  /** a tool runs: `Running bash: npm test`; several at once: `Running grep: TODO (+2 more)` */
  running: (tool: string, param: string, others: number) =>
    `Running ${tool}${param ? `: ${param}` : ''}${others > 0 ? ` (+${others} more)` : ''}`,
  /** a tool waits for the person's answer: `Waiting for permission: bash` */
  permission: (tool: string) => `Waiting for permission: ${tool}`,
  /** a manual or automatic compaction: `Compacting the session…` */
  compacting: 'Compacting the session…',
  /** the provider backs off: `Retrying in 8 s (overloaded, HTTP 529)` (the reason's own brackets become a comma) */
  retrying: (seconds: number, reason: string) =>
    `Retrying in ${seconds} s (${reason.replace(/ \((HTTP \d+)\)$/, ', $1')})`,
} as const;

/** Longest key parameter shown in a label, characters (the line is cut to the width anyway). */
const PARAM_MAX_CHARS = 60;

/**
 * The label for a running reply: the permission asked, else the newest assistant item's running
 * tools (a sub-agent's own activity after ` › `), its tool call being written, its streaming
 * thinking or text, else {@link ACTIVITY_LABELS.waiting}.
 */
export function describeActivity(
  items: readonly ChatItem[],
  context: { permission?: PermissionRequest; cwd?: string } = {},
): string {
  if (context.permission) return ACTIVITY_LABELS.permission(context.permission.toolName);
  return itemActivity(items, context.cwd) ?? ACTIVITY_LABELS.waiting;
}

/** The retry label at `nowMs`: whole seconds left, rounded up, never below 1 while the wait lasts. */
export function retryLabel(retry: RetryWait, nowMs: number): string {
  return ACTIVITY_LABELS.retrying(Math.max(1, Math.ceil((retry.untilMs - nowMs) / 1000)), retry.reason);
}

function itemActivity(items: readonly ChatItem[], cwd: string | undefined): string | undefined {
  const last = items.at(-1);
  if (!last || last.role !== 'assistant') return undefined;
  const running = last.tools.filter((v) => v.call.finished && !v.result && !v.interrupted);
  if (running.length > 0) {
    const first = running[0]!;
    const label = ACTIVITY_LABELS.running(toolName(first), param(first, cwd), running.length - 1);
    const child = first.children ? itemActivity(first.children, cwd) : undefined;
    return child ? `${label} › ${child}` : label;
  }
  if (!last.streaming) return undefined;
  const lastPart = last.message.parts.at(-1);
  if (lastPart?.type === 'tool_call' && !lastPart.finished) {
    const view = last.tools.find((v) => v.call.id === lastPart.id) ?? { call: lastPart };
    return ACTIVITY_LABELS.preparing(toolName(view), param(view, cwd));
  }
  if (lastPart?.type === 'reasoning') return ACTIVITY_LABELS.thinking;
  if (lastPart?.type === 'text' && lastPart.text.trim() !== '') return ACTIVITY_LABELS.writing;
  return undefined;
}

/** The tool's name as the person knows it: `bash`, `server › tool` for an MCP tool. */
function toolName(view: ToolCallView): string {
  return view.mcpServer || !TOOL_VIEWS[view.call.name] ? toolTitle(view) : view.call.name;
}

function param(view: ToolCallView, cwd: string | undefined): string {
  const text = toolKeyParam(view, cwd);
  return text.length > PARAM_MAX_CHARS ? `${text.slice(0, PARAM_MAX_CHARS - 1)}…` : text;
}
