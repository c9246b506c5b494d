/**
 * What `-d` tells a person debugging a slow or failing run: the model and
 * the base URL it is called at, each provider call with its duration, outcome (HTTP status when it
 * failed), retries and tokens, each retry with its reason, each tool call with its duration, permission
 * decisions and compactions. With `-p` the lines go to stderr as `[debug] …`; in the TUI to the logs
 * page (ctrl+l). A subscriber of the core's events, like the TUI.
 *
 * ```
 * model anthropic/claude-sonnet-5-5 (API model claude-sonnet-5-5) at https://api.anthropic.com
 * request 1: ok in 812 ms (finish tool_use; tokens 1200 in, 85 out, 0 cache read, 0 cache write; $0.0049)
 * tool bash toolu_01 started
 * permission bash: allow (unattended): npm test
 * tool bash toolu_01 finished in 1520 ms
 * retry 1/8 in 2 s: rate limited (429)
 * request 2: failed in 2130 ms, HTTP 529, after 1 retry: overloaded
 * ```
 */
import type { AgentEvents } from '../agent/events.js';
import type { EventBus } from '../events/bus.js';
import type { PermissionOutcome } from '../permission/service.js';
import { providerConnection, type ModelInfo, type ProviderSettings } from '../provider/index.js';
import { describeHtmlPage } from '../provider/html-page.js';

/** What the debug log listens to. */
export interface DebugLogSource {
  bus: EventBus<AgentEvents>;
  /** the coder model at start (named in the first line) */
  coderModel: ModelInfo;
  permission?: { onOutcome(listener: (outcome: PermissionOutcome) => void): () => void };
}

/**
 * Writes the lines described above through `write` (one line each, no newline) until the returned
 * function is called. The first line, the model and base URL, is written at once.
 */
export function attachDebugLog(
  source: DebugLogSource,
  settings: ProviderSettings,
  write: (line: string) => void,
): () => void {
  const { bus } = source;
  let requests = 0;
  let lastModel = source.coderModel.id;
  write(modelLine(source.coderModel.id, settings, source.coderModel.apiModel));
  const toolStarts = new Map<string, number>();
  const offs = [
    bus.on('provider.call', (call) => {
      if (call.model !== lastModel) {
        lastModel = call.model;
        write(
          modelLine(call.model, settings, call.model === source.coderModel.id ? source.coderModel.apiModel : undefined),
        );
      }
      write(requestLine(++requests, call));
    }),
    bus.on('provider.retry', (e) =>
      write(`retry ${e.attempt}/${e.maxRetries} in ${seconds(e.delayMs)}: ${oneLine(e.reason)}`),
    ),
    bus.on('tool.started', (e) => {
      toolStarts.set(e.toolCallId, performance.now());
      write(`tool ${e.name} ${e.toolCallId} started`);
    }),
    bus.on('tool.finished', (e) => {
      const started = toolStarts.get(e.toolCallId);
      toolStarts.delete(e.toolCallId);
      const took = started === undefined ? '' : ` in ${Math.round(performance.now() - started)} ms`;
      write(`tool ${e.name} ${e.toolCallId} ${e.isError ? 'failed' : 'finished'}${took}`);
    }),
    bus.on('session.compacting', (e) => write(`compacting session ${e.sessionId}`)),
    bus.on('session.compacted', (e) =>
      write(`compacted session ${e.sessionId}: requests start from message ${e.summaryMessageId}`),
    ),
    bus.on('session.compact_failed', (e) => write(`compaction of session ${e.sessionId} failed: ${oneLine(e.error)}`)),
    ...(source.permission
      ? [
          source.permission.onOutcome((o) =>
            write(`permission ${o.toolName}: ${o.decision} (${o.by}): ${o.message ?? o.description}`),
          ),
        ]
      : []),
  ];
  return () => {
    for (const off of offs) off();
  };
}

/** `model <id> (API model <name>) at <base URL>`. */
function modelLine(modelId: string, settings: ProviderSettings, apiModel?: string): string {
  const provider = modelId.slice(0, modelId.indexOf('/'));
  const baseURL = providerConnection(provider, settings)?.baseURL ?? 'an unknown base URL';
  return `model ${modelId}${apiModel ? ` (API model ${apiModel})` : ''} at ${baseURL}`;
}

/** One provider call, e.g. `request 3: ok in 812 ms (finish end_turn; tokens 10 in, 5 out, 0 cache read, 0 cache write; $0.0001)`. */
export function requestLine(n: number, call: AgentEvents['provider.call']): string {
  const retries = call.retries ? `, after ${call.retries} retr${call.retries === 1 ? 'y' : 'ies'}` : '';
  if (call.outcome === 'ok') {
    const u = call.usage;
    const tokens = u
      ? `; tokens ${u.input} in, ${u.output} out, ${u.cacheRead} cache read, ${u.cacheWrite} cache write`
      : '';
    const cost = call.costUsd !== undefined ? `; $${call.costUsd.toFixed(4)}` : '';
    return `request ${n}: ok in ${call.durationMs} ms${retries} (finish ${call.finishReason ?? 'unknown'}${tokens}${cost})`;
  }
  if (call.outcome === 'canceled') return `request ${n}: canceled after ${call.durationMs} ms${retries}`;
  const status = call.status !== undefined ? `, HTTP ${call.status}` : '';
  return `request ${n}: failed in ${call.durationMs} ms${status}${retries}: ${oneLine(call.error ?? 'unknown error')}`;
}

/** Characters of a provider's error text one debug line keeps. */
export const DEBUG_ERROR_MAX_CHARS = 300;

/**
 * A provider's error text as one line: an HTML page (a proxy's or a load balancer's error page
 * instead of the API's JSON) is named by its title, other text has its whitespace collapsed; cut to
 * {@link DEBUG_ERROR_MAX_CHARS}. Each `[debug]` line must stay one line for grep.
 */
export function oneLine(text: string): string {
  const line = describeHtmlPage(text).replace(/\s+/g, ' ').trim();
  return line.length > DEBUG_ERROR_MAX_CHARS ? `${line.slice(0, DEBUG_ERROR_MAX_CHARS - 1)}…` : line;
}

function seconds(ms: number): string {
  return ms < 10_000 ? `${Math.round(ms / 100) / 10} s` : `${Math.round(ms / 1000)} s`;
}
