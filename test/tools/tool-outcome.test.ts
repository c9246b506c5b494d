/**
 * How a finished call is classed in the call log, one row per rule, and the kernel's
 * marks on its results: `validation` for input it rejected, `truncated` for output it cut.
 */
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runToolCalls, type ToolCallRecord } from '../../src/agent/tool-calls.js';
import { PermissionDeniedError, PermissionRuleError } from '../../src/permission/errors.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import { defineTool, outcomeOf, resultFromError, type ToolOutcome, type ToolResult } from '../../src/tools/tool.js';
import { recordingContext } from '../support/recording-context.js';

const rows: { name: string; result: ToolResult; aborted?: boolean; outcome: ToolOutcome }[] = [
  { name: 'a success', result: { output: 'x', isError: false }, outcome: 'ok' },
  { name: 'an error', result: { output: 'boom', isError: true }, outcome: 'error' },
  {
    name: "the tool's own outcome wins",
    result: { output: 'x', isError: true, outcome: 'timeout' },
    aborted: true,
    outcome: 'timeout',
  },
  { name: "the person's denial", result: resultFromError(new PermissionDeniedError()), outcome: 'permission' },
  {
    name: "a rule's refusal",
    result: resultFromError(new PermissionRuleError('Permission denied: rule "rm *": deny')),
    outcome: 'permission',
  },
  {
    name: 'an error while the run was aborted',
    result: { output: 'Tool execution canceled by user', isError: true },
    aborted: true,
    outcome: 'canceled',
  },
  {
    name: 'a success that finished as the run was aborted',
    result: { output: 'x', isError: false },
    aborted: true,
    outcome: 'ok',
  },
  {
    name: "bash's timed-out command",
    result: { output: 'Command timed out', isError: true, metadata: { timed_out: true } },
    outcome: 'timeout',
  },
];

describe('outcomeOf', () => {
  it.each(rows)('$name → $outcome', ({ result, aborted, outcome }) => {
    expect(outcomeOf(result, aborted ?? false)).toBe(outcome);
  });
});

describe('the kernel marks its results', () => {
  const tool = defineTool({
    name: 'echo',
    description: 'echo',
    parameters: z.object({ text: z.string(), times: z.number().int().min(1).optional() }),
    maxOutputChars: 20,
    async run({ text, times }) {
      return text.repeat(times ?? 1);
    },
  });
  const { ctx } = recordingContext({ cwd: tmpdir() });

  it('a rejected input is a validation outcome', async () => {
    expect(await tool.run({ text: 'a', times: 0 }, ctx)).toEqual({
      output: 'Invalid input for echo: times: Too small: expected number to be >=1',
      isError: true,
      outcome: 'validation',
    });
    expect((await tool.run({ text: 'a\u0000' }, ctx)).outcome).toBe('validation');
  });

  it('input that is not JSON is a validation outcome too, answered by the execution path', async () => {
    const registry = new ToolRegistry();
    registry.register(tool, 'builtin');
    const log: ToolCallRecord[] = [];
    const call = { type: 'tool_call' as const, id: 'call-1', name: 'echo', input: '{', finished: true };
    await runToolCalls({
      calls: [call],
      registry,
      signal: ctx.signal,
      contextFor: () => ctx,
      log: { record: (r) => void log.push(r) },
    });
    expect(log.map((r) => r.outcome)).toEqual(['validation']);
  });

  it('cut output is marked truncated; output within the limit is not', async () => {
    const cut = await tool.run({ text: '0123456789', times: 3 }, ctx);
    expect(cut).toEqual({
      output: '0123456789\n\n... [1 lines truncated] ...\n\n0123456789',
      isError: false,
      truncated: true,
    });
    expect(await tool.run({ text: 'short' }, ctx)).toEqual({ output: 'short', isError: false });
  });
});
