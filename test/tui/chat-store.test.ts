/**
 * The TUI's store against a real app: a prompt becomes a user item and a streamed assistant item
 * with a footer; tool calls get their results; a permission request waits in the queue until
 * answered; a sub-agent's calls nest under its call; tool output is cut in render state.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ChatStore } from '../../src/tui/state/chat-store.js';
import { CONTENT_LINES_KEY, DISPLAY_RESULT_MAX_CHARS } from '../../src/tui/state/chat-item.js';
import { startTuiApp, type TuiApp } from '../support/tui-app.js';
import { until } from '../support/chat-store-until.js';
import { FIXTURE, TSX_LOADER } from '../mcp/fixture.js';

let t: TuiApp | undefined;
let store: ChatStore | undefined;
afterEach(async () => {
  store?.dispose();
  await t?.close();
  t = undefined;
  store = undefined;
});

describe('ChatStore', () => {
  it('a prompt creates the session; the answer streams in and ends with a footer naming the model', async () => {
    t = await startTuiApp([{ text: ['Hello ', 'there.'] }]);
    store = new ChatStore(t.services);
    store.openSession(undefined);
    const run = await store.send('say hi');
    expect(run?.reason).toBe('end_turn');
    const state = await until(store, (s) => !s.busy && s.items.length === 2);
    expect(state.session?.title).toBe('New Session');
    expect(state.items.map((i) => i.role)).toEqual(['user', 'assistant']);
    expect(state.items[1]!.message.parts.find((p) => p.type === 'text')).toEqual({
      type: 'text',
      text: 'Hello there.',
    });
    expect(state.items[1]!.footer).toMatchObject({ reason: 'end_turn', model: t.services.agent.model().id });
    expect(state.items[1]!.footer!.durationMs).toBeGreaterThanOrEqual(0);
    expect(state.promptHistory).toEqual(['say hi']);
    // reopening shows the same items from SQLite
    const again = new ChatStore(t.services);
    again.openSession(state.session!.id);
    expect(again.getSnapshot().items.map((i) => i.message.id)).toEqual(state.items.map((i) => i.message.id));
    expect(again.getSnapshot().items[1]!.footer?.reason).toBe('end_turn');
    again.dispose();
  });

  it('a permission request waits in the queue; deny ends the reply with "permission denied" and the file stays', async () => {
    t = await startTuiApp([{ toolCalls: [{ id: 'toolu_rm', name: 'bash', input: { command: 'rm victim' } }] }]);
    writeFileSync(join(t.dir, 'victim'), 'x');
    store = new ChatStore(t.services);
    const running = store.send('remove victim');
    const asking = await until(store, (s) => s.permissionQueue.length === 1);
    expect(asking.permissionQueue[0]).toMatchObject({ toolName: 'bash', params: { command: 'rm victim' } });
    store.answerPermission(asking.permissionQueue[0]!.id, 'deny');
    expect((await running)?.reason).toBe('permission_denied');
    const state = await until(store, (s) => !s.busy && s.permissionQueue.length === 0);
    const assistant = state.items[1]!;
    expect(assistant.footer?.reason).toBe('permission_denied');
    expect(assistant.tools[0]!.result).toMatchObject({ toolCallId: 'toolu_rm', isError: true });
    expect(existsSync(join(t.dir, 'victim'))).toBe(true);
  });

  it('a long tool result is cut in render state but whole in the database', async () => {
    t = await startTuiApp([
      { toolCalls: [{ id: 'toolu_view', name: 'view', input: { file_path: 'big.txt' } }] },
      { text: 'done' },
    ]);
    writeFileSync(join(t.dir, 'big.txt'), 'line of text\n'.repeat(2000));
    store = new ChatStore(t.services);
    await store.send('read big.txt');
    const state = await until(store, (s) => !s.busy && s.items.length === 3);
    const result = state.items[1]!.tools[0]!.result!;
    expect(result.content.length).toBe(DISPLAY_RESULT_MAX_CHARS);
    // the view still knows how long the whole output was: "… (N more lines)" counts them all
    const storedLines = (
      t.services.sessions.messages(state.session!.id).find((m) => m.role === 'tool')!.parts[0] as { content: string }
    ).content
      .replace(/\n+$/, '')
      .split('\n').length;
    expect(result.metadata?.[CONTENT_LINES_KEY]).toBe(storedLines);
    const stored = t.services.sessions.messages(state.session!.id).find((m) => m.role === 'tool')!.parts[0]!;
    expect(stored.type === 'tool_result' && stored.content.length).toBeGreaterThan(DISPLAY_RESULT_MAX_CHARS);
  });

  it("a sub-agent's tool calls are nested under the agent call, live and after a reload", async () => {
    t = await startTuiApp([
      { toolCalls: [{ id: 'toolu_task', name: 'agent', input: { prompt: 'find the readme' } }] },
      { toolCalls: [{ id: 'toolu_glob', name: 'glob', input: { pattern: '*.md' } }] },
      { text: 'README.md is at the root.' },
      { text: 'Found it.' },
    ]);
    writeFileSync(join(t.dir, 'README.md'), '# hi\n');
    store = new ChatStore(t.services);
    await store.send('where is the readme?');
    const state = await until(store, (s) => !s.busy && s.items.length === 3);
    const task = state.items[1]!.tools[0]!;
    expect(task.call.name).toBe('agent');
    const childCalls = task.children!.flatMap((c) => c.tools.map((v) => [v.call.name, v.result?.isError]));
    expect(childCalls).toEqual([['glob', false]]);
    const reloaded = new ChatStore(t.services);
    reloaded.openSession(state.session!.id);
    const nested = reloaded.getSnapshot().items[1]!.tools[0]!.children!.flatMap((c) => c.tools.map((v) => v.call.name));
    expect(nested).toEqual(['glob']);
    reloaded.dispose();
  });

  it("an MCP server's status reaches the state, and its tool calls carry the server's name", async () => {
    t = await startTuiApp(
      [{ toolCalls: [{ id: 'toolu_echo', name: 'fixture_echo', input: { text: 'hi' } }] }, { text: 'It said hi.' }],
      {
        config: {
          mcpServers: { fixture: { command: process.execPath, args: ['--import', TSX_LOADER, FIXTURE, 'stdio'] } },
        },
      },
    );
    store = new ChatStore(t.services);
    const ready = await until(store, (s) => s.mcpServers[0]?.status === 'connected');
    expect(ready.mcpServers[0]).toMatchObject({ name: 'fixture', type: 'stdio' });
    expect(ready.mcpServers[0]!.tools).toContain('fixture_echo');
    expect(ready.logs.map((l) => l.message)).toContain(
      `MCP server fixture: connected (${ready.mcpServers[0]!.tools.length} tools)`,
    );
    const running = store.send('echo hi');
    // MCP tools ask first
    const asking = await until(store, (s) => s.permissionQueue.length === 1);
    expect(asking.permissionQueue[0]).toMatchObject({ toolName: 'fixture_echo', params: { text: 'hi' } });
    store.answerPermission(asking.permissionQueue[0]!.id, 'allow');
    await running;
    const state = await until(store, (s) => !s.busy && s.items.length === 3);
    expect(state.items[1]!.tools[0]).toMatchObject({
      mcpServer: 'fixture',
      result: { isError: false, content: 'echo: hi' },
    });
  });

  it('a call left without a result by a killed process shows as interrupted, not as still running', async () => {
    t = await startTuiApp([]);
    const { db } = t.app;
    const session = db.sessions.create({ title: 'killed' });
    db.messages.create({ sessionId: session.id, role: 'user', parts: [{ type: 'text', text: 'sleep' }] });
    db.messages.create({
      sessionId: session.id,
      role: 'assistant',
      parts: [
        { type: 'tool_call', id: 'toolu_sleep', name: 'bash', input: '{"command":"sleep 30"}', finished: true },
        { type: 'finish', reason: 'tool_use', time: Date.now() },
      ],
    });
    store = new ChatStore(t.services);
    store.openSession(session.id);
    expect(store.getSnapshot().items[1]!.tools[0]).toMatchObject({ call: { id: 'toolu_sleep' }, interrupted: true });
  });
});
