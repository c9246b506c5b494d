/**
 * How a step's tool results reach the database (fewer commits per step, no weaker guarantee):
 * each result is stored as its call finishes; the last one finishes the tool message (whole, in call
 * order) and is committed together with the next step's first write, which happens at the same moment.
 * When that next write fails, the result is committed all the same.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ToolCallPart, ToolResultPart } from '../../src/message.js';
import { runToolCalls, type ToolCallRecord } from '../../src/agent/tool-calls.js';
import { openDatabase } from '../../src/db/index.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import { PermissionDeniedError } from '../../src/permission/errors.js';
import { defineTool, type Tool } from '../../src/tools/tool.js';
import { agentHarness, type Harness } from '../support/agent-harness.js';
import { toolContext } from '../support/tool-context.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const slowRead = defineTool({
  name: 'slow_read',
  description: 'Reads slowly.',
  parameters: z.object({ id: z.string(), ms: z.number() }),
  readOnly: true,
  async run({ id, ms }) {
    await new Promise((r) => setTimeout(r, ms));
    return `read ${id}`;
  },
});

/** Logs every write of a message row (the parts as written), in order. */
function logMessageWrites(h: Harness): () => { id: string; parts: string }[] {
  h.db.connection.exec(`
    CREATE TABLE write_log (message_id TEXT, parts TEXT);
    CREATE TRIGGER log_message_write AFTER UPDATE ON messages
    BEGIN INSERT INTO write_log VALUES (NEW.id, NEW.parts); END;
  `);
  return () =>
    h.db.connection
      .prepare<[], { id: string; parts: string }>('SELECT message_id AS id, parts FROM write_log ORDER BY rowid')
      .all();
}

describe('tool results in the database', () => {
  it('stores each result as its call finishes; the last one writes the message once more, finished and in call order', async () => {
    h = await agentHarness(
      [
        {
          toolCalls: [
            { name: 'slow_read', input: { id: 'a', ms: 400 } },
            { name: 'slow_read', input: { id: 'b', ms: 5 } },
            { name: 'slow_read', input: { id: 'c', ms: 200 } },
          ],
        },
        { text: 'ok' },
      ],
      { tools: [slowRead] },
    );
    const writes = logMessageWrites(h);
    await h.agent.run(h.sessionId, 'read three');
    const tool = h.db.messages.list(h.sessionId).find((m) => m.role === 'tool')!;
    const ofTool = writes()
      .filter((w) => w.id === tool.id)
      .map((w) =>
        (JSON.parse(w.parts) as { type: string; content?: string; reason?: string }[]).map(
          (p) => p.content ?? `${p.type}:${p.reason}`,
        ),
      );
    // b, then c, as they finished; then a: all three in call order with the finish part, and no write after it
    expect(ofTool).toEqual([['read b'], ['read b', 'read c'], ['read a', 'read b', 'read c', 'finish:end_turn']]);
    expect(tool.parts.map((p) => (p as ToolResultPart).content ?? p.type)).toEqual([
      'read a',
      'read b',
      'read c',
      'finish',
    ]);
    expect(tool.finishedAt).toBeDefined();
  });

  it("commits the last call's result, the finished tool message and its log record even when the next step's first write fails", async () => {
    // the call log as the app wires it: the project's database
    const toolCallLog = { record: (r: ToolCallRecord) => h!.db.toolCalls.record(r) };
    h = await agentHarness([{ toolCalls: [{ name: 'ls', input: { path: '.' } }] }, { text: 'never asked' }], {
      agent: { toolCallLog },
    });
    // the second assistant message (after the tool message) cannot be inserted: a full disk, say
    h.db.connection.exec(`
      CREATE TRIGGER fail_next_step BEFORE INSERT ON messages
      WHEN NEW.role = 'assistant' AND (SELECT count(*) FROM messages WHERE session_id = NEW.session_id AND role = 'tool') > 0
      BEGIN SELECT RAISE(ABORT, 'database or disk is full (simulated)'); END;
    `);
    await expect(h.agent.run(h.sessionId, 'list')).rejects.toThrow('database or disk is full (simulated)');

    const reader = openDatabase(join(h.dir, '.opencode'));
    try {
      const messages = reader.messages.list(h.sessionId);
      expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
      const tool = messages[2]!;
      expect(tool.parts.map((p) => p.type)).toEqual(['tool_result', 'finish']);
      expect(tool.parts[0]).toMatchObject({ name: 'ls', isError: false });
      expect(tool.finishedAt).toBeDefined();
      expect(reader.connection.prepare('SELECT tool, outcome FROM tool_calls').all()).toEqual([
        { tool: 'ls', outcome: 'ok' },
      ]);
      // the assistant message of the failed step was not stored, and the run asked the model only once
      expect(h.fake.answered).toHaveLength(1);
    } finally {
      reader.close();
    }
    expect(h.db.connection.inTransaction).toBe(false);
  });
});

describe('runToolCalls with holdLastFinish', () => {
  const call = (id: string, name: string): ToolCallPart => ({
    type: 'tool_call',
    id,
    name,
    input: '{}',
    finished: true,
  });
  const tool = (name: string, run: () => Promise<string>): Tool => ({
    name,
    description: name,
    inputSchema: { type: 'object', properties: {} },
    readOnly: false,
    async run() {
      return { output: await run(), isError: false };
    },
  });

  async function batch(calls: ToolCallPart[], registry: ToolRegistry) {
    const finished: string[] = [];
    const log: ToolCallRecord[] = [];
    const outcome = await runToolCalls({
      calls,
      registry,
      signal: new AbortController().signal,
      contextFor: (c) => ({ ...toolContext(tmpdir()), toolCallId: c.id }),
      log: { record: (r) => log.push(r) },
      onFinish: (c) => finished.push(c.id),
      holdLastFinish: true,
    });
    return { outcome, finished, log };
  }

  it('hands back the last call’s log record and onFinish, made when the caller runs them', async () => {
    const registry = new ToolRegistry();
    registry.register(tool('first', async () => 'one'));
    registry.register(tool('second', async () => 'two'));
    const { outcome, finished, log } = await batch([call('c1', 'first'), call('c2', 'second')], registry);
    expect(outcome.results.map((r) => r.content)).toEqual(['one', 'two']);
    expect(finished).toEqual(['c1']);
    expect(log.map((r) => r.toolCallId)).toEqual(['c1']);
    outcome.heldFinish!();
    expect(finished).toEqual(['c1', 'c2']);
    expect(log.map((r) => [r.toolCallId, r.outcome])).toEqual([
      ['c1', 'ok'],
      ['c2', 'ok'],
    ]);
  });

  it('holds nothing back when a call never ran (a denial skipped it): every call that ran was written', async () => {
    const registry = new ToolRegistry();
    registry.register(
      tool('deploy', async () => {
        throw new PermissionDeniedError();
      }),
    );
    registry.register(tool('status', async () => 'fine'));
    const { outcome, finished, log } = await batch([call('c1', 'deploy'), call('c2', 'status')], registry);
    expect(outcome.permissionDenied).toBe(true);
    expect(outcome.heldFinish).toBeUndefined();
    expect(finished).toEqual(['c1']);
    expect(log.map((r) => [r.toolCallId, r.outcome])).toEqual([
      ['c1', 'permission'],
      ['c2', 'canceled'],
    ]);
  });
});
