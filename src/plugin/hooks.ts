/**
 * Plugins' hooks as the registry's {@link ToolCallHooks} (run on every tool call, `agent/tool-calls.ts`)
 * and as bus subscribers (`event`).
 *
 * Several plugins: `before` hooks run in load order, each seeing the arguments the previous one
 * rewrote, the first block wins; `after` hooks chain the same way; for `permission.ask` a `deny` from
 * any plugin wins over an `allow`, and with neither the person is asked. A hook that throws is
 * reported (one warning naming the plugin) and: blocks the call (`before`: a guard that fails must not
 * let the call through), leaves the output as it was (`after`), or lets the person decide
 * (`permission.ask`). What `after` hooks return is cut as every tool's output is (head and tail around
 * a note, `MAX_OUTPUT_CHARS` of tools/truncate.ts): it is stored and sent to the model like any result.
 */
import type { AgentEvents } from '../agent/events.js';
import type { EventBus } from '../events/bus.js';
import type { ToolCallHooks } from '../tools/registry.js';
import { truncateOutput } from '../tools/truncate.js';
import type { LoadedPlugin } from './load.js';

/** Every bus event, so the `event` hook sees each kind (the compiler checks the list is complete). */
const EVENT_TYPES = {
  'run.started': true,
  'run.finished': true,
  'message.created': true,
  'message.updated': true,
  'tool.started': true,
  'tool.progress': true,
  'tool.finished': true,
  'provider.retry': true,
  'provider.call': true,
  'session.updated': true,
  'session.compacting': true,
  'session.compacted': true,
  'session.compact_failed': true,
  'subagent.started': true,
  warning: true,
} satisfies Record<keyof AgentEvents, true>;

/** The hooks of `plugins`, or undefined when none declares a tool-call hook. */
export function toolCallHooks(
  plugins: readonly LoadedPlugin[],
  warn: (message: string) => void,
): ToolCallHooks | undefined {
  const withHooks = plugins.filter((p) => {
    const h = p.result.hooks;
    return h && (h['tool.execute.before'] || h['tool.execute.after'] || h['permission.ask']);
  });
  if (withHooks.length === 0) return undefined;
  const failed = (plugin: LoadedPlugin, hook: string, err: unknown) => {
    const message = `${plugin.spec.label}: ${hook} hook failed: ${err instanceof Error ? err.message : String(err)}`;
    warn(message);
    return message;
  };
  return {
    async before(call) {
      let args = call.args as Record<string, unknown>;
      for (const plugin of withHooks) {
        const hook = plugin.result.hooks!['tool.execute.before'];
        if (!hook) continue;
        try {
          const answer = await hook.call(plugin.result.hooks, {
            tool: call.tool,
            sessionId: call.sessionId,
            callId: call.callId,
            args,
          });
          if (answer?.block !== undefined) return { blocked: String(answer.block) };
          if (answer?.args && typeof answer.args === 'object') args = answer.args;
        } catch (err) {
          return { blocked: `Blocked: ${failed(plugin, 'tool.execute.before', err)}`, hookFailed: true };
        }
      }
      return { args };
    },
    async after(call, result) {
      let output = result.output;
      for (const plugin of withHooks) {
        const hook = plugin.result.hooks!['tool.execute.after'];
        if (!hook) continue;
        try {
          const answer = await hook.call(
            plugin.result.hooks,
            {
              tool: call.tool,
              sessionId: call.sessionId,
              callId: call.callId,
              args: call.args as Record<string, unknown>,
            },
            { output, isError: result.isError },
          );
          if (typeof answer?.output === 'string') output = answer.output;
        } catch (err) {
          failed(plugin, 'tool.execute.after', err);
        }
      }
      return output === result.output ? output : truncateOutput(output, 'marker').text;
    },
    async permission(request) {
      let answer: 'allow' | 'deny' | 'ask' = 'ask';
      for (const plugin of withHooks) {
        const hook = plugin.result.hooks!['permission.ask'];
        if (!hook) continue;
        try {
          const said = await hook.call(plugin.result.hooks, request);
          if (said === 'deny') return 'deny';
          if (said === 'allow') answer = 'allow';
        } catch (err) {
          failed(plugin, 'permission.ask', err);
        }
      }
      return answer;
    },
  };
}

/** Subscribes the plugins' `event` hooks to every bus event; returns the function that unsubscribes. */
export function subscribeEventHooks(
  plugins: readonly LoadedPlugin[],
  bus: EventBus<AgentEvents>,
  warn: (message: string) => void,
): () => void {
  const offs: (() => void)[] = [];
  for (const plugin of plugins) {
    const hook = plugin.result.hooks?.event;
    if (!hook) continue;
    for (const type of Object.keys(EVENT_TYPES) as (keyof AgentEvents)[]) {
      offs.push(
        bus.on(type, (properties) => {
          // a failing event hook must not warn about its own warning forever
          const report = (err: unknown) => {
            if (type !== 'warning')
              warn(`${plugin.spec.label}: event hook failed: ${err instanceof Error ? err.message : String(err)}`);
          };
          try {
            const done = hook.call(plugin.result.hooks, { type, properties });
            if (done && typeof (done as Promise<void>).catch === 'function') (done as Promise<void>).catch(report);
          } catch (err) {
            report(err);
          }
        }),
      );
    }
  }
  return () => offs.forEach((off) => off());
}
