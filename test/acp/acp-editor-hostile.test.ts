/**
 * A hostile editor and a hostile model against the file tools on the editor's buffers: the editor's
 * `fs/read_text_file` fails, never answers, answers NUL bytes or 10 MB; a session/cancel arrives while
 * the editor applies a write; two sessions of one process change the same file; `session/close`
 * while a turn runs; MCP servers passed twice under one name, or malformed. Whatever happens: no
 * hang, no crash of the agent process, nothing lost, stdout only JSON-RPC.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { acpPerTest } from '../support/acp-per-test.js';
import { cleanEnv } from '../support/cli.js';
import type { FakeProvider, FakeTurn } from '../support/fake-provider.js';
import { titleTurn, type AcpAgentProcess, toolResultsSent } from './acp-client.js';

let fake: FakeProvider | undefined;
let agent: AcpAgentProcess | undefined;
const acp = acpPerTest();

/** An agent in `dir` against a fake provider with `turns`, the editor offering both fs methods. */
async function startAgent(dir: string, turns: FakeTurn[], env: Record<string, string> = {}): Promise<AcpAgentProcess> {
  fake = await acp.startFake(turns, { sideTurn: titleTurn('Hostile') });
  agent = acp.startAgent({
    cwd: dir,
    env: cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.anthropicBaseURL, ...env }),
  });
  await agent.agent.request('initialize', {
    protocolVersion: 1,
    clientCapabilities: { fs: { readTextFile: true, writeTextFile: true } },
  });
  return agent;
}

async function newSession(dir: string): Promise<string> {
  return (await agent!.agent.request('session/new', { cwd: dir, mcpServers: [] })).sessionId;
}

function prompt(sessionId: string, text: string): Promise<unknown> {
  return agent!.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] });
}

/** Every stdout line is a JSON-RPC 2.0 message. */
function expectOnlyJsonRpc(a: AcpAgentProcess): void {
  const bad = a.stdoutLines().filter((line) => {
    try {
      return (JSON.parse(line) as { jsonrpc?: string }).jsonrpc !== '2.0';
    } catch {
      return true;
    }
  });
  expect(bad).toEqual([]);
}

const VIEW_A = { toolCalls: [{ name: 'view', input: { file_path: 'a.txt' } }] };

describe('opencode acp: a hostile editor', () => {
  it('an editor read that fails falls back to the disk (what an editor without the file open answers)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-acp-read-error-'));
    writeFileSync(join(dir, 'a.txt'), 'on disk\n');
    await startAgent(dir, [VIEW_A, { text: 'Read.' }]);
    const sessionId = await newSession(dir);
    agent!.onRead = () => {
      throw new Error('buffer unavailable');
    };
    expect(await prompt(sessionId, 'read a.txt')).toEqual({ stopReason: 'end_turn' });
    expect(toolResultsSent(fake!, 1)).toEqual(['<file>\n     1|on disk\n</file>\n']);
    expectOnlyJsonRpc(agent!);
  });

  it('an editor that never answers a read: the view fails after the timeout with an error that says what to do; the turn goes on', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-acp-read-never-'));
    const file = join(dir, 'a.txt');
    writeFileSync(file, 'on disk\n');
    await startAgent(dir, [VIEW_A, { text: 'The editor did not answer.' }], { OPENCODE_ACP_FS_TIMEOUT_MS: '500' });
    const sessionId = await newSession(dir);
    let cancelled = false;
    agent!.onRead = (_path, signal) =>
      new Promise((_resolve, reject) =>
        signal.addEventListener('abort', () => {
          cancelled = true;
          reject(new Error('cancelled'));
        }),
      );
    expect(await prompt(sessionId, 'read a.txt')).toEqual({ stopReason: 'end_turn' });
    expect(toolResultsSent(fake!, 1)).toEqual([
      `The editor did not answer fs/read_text_file for ${file} within 0.5 s. Try again; if it keeps happening, the editor is stuck: restart the agent from the editor.`,
    ]);
    // the editor was told to stop reading ($/cancel_request)
    expect(cancelled).toBe(true);
    expectOnlyJsonRpc(agent!);
  });

  it('session/cancel while the editor reads: the turn ends cancelled at once, and the next prompt works', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-acp-read-cancel-'));
    writeFileSync(join(dir, 'a.txt'), 'on disk\n');
    await startAgent(dir, [VIEW_A, { text: 'Still here.' }]);
    const sessionId = await newSession(dir);
    agent!.onRead = () => {
      void agent!.agent.notify('session/cancel', { sessionId });
      return new Promise(() => {});
    };
    expect(await prompt(sessionId, 'read a.txt')).toEqual({ stopReason: 'cancelled' });
    expect(await prompt(sessionId, 'hello')).toEqual({ stopReason: 'end_turn' });
    expectOnlyJsonRpc(agent!);
  });

  it('a buffer holding NUL is refused as binary, as the same bytes on disk are', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-acp-read-nul-'));
    const file = join(dir, 'a.txt');
    writeFileSync(file, 'on disk\n');
    await startAgent(dir, [VIEW_A, { text: 'Binary.' }]);
    const sessionId = await newSession(dir);
    agent!.onRead = () => ({ content: 'text\0more\n' });
    expect(await prompt(sessionId, 'read a.txt')).toEqual({ stopReason: 'end_turn' });
    expect(toolResultsSent(fake!, 1)).toEqual([
      `File appears to be binary (it contains NUL bytes): ${file}\nOnly text files can be viewed or changed.`,
    ]);
  });

  it('a 10 MB buffer with a 1 MB line is refused by view as too large', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-acp-read-huge-'));
    writeFileSync(join(dir, 'a.txt'), 'on disk\n');
    await startAgent(dir, [VIEW_A, { text: 'Too large.' }]);
    const sessionId = await newSession(dir);
    const huge = 'x'.repeat(1024 * 1024) + '\n' + 'y\n'.repeat(4.5 * 1024 * 1024);
    agent!.onRead = () => ({ content: huge });
    expect(await prompt(sessionId, 'read a.txt')).toEqual({ stopReason: 'end_turn' });
    expect(toolResultsSent(fake!, 1)).toEqual([
      `File is too large in the editor (${Buffer.byteLength(huge)} bytes). Maximum size is 256000 bytes`,
    ]);
    expectOnlyJsonRpc(agent!);
  });

  it('session/cancel while the editor applies a write: the write is waited for and recorded, so the next edit needs no new read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-acp-write-cancel-'));
    const file = join(dir, 'a.txt');
    writeFileSync(file, 'alpha\n');
    await startAgent(dir, [
      VIEW_A,
      { toolCalls: [{ name: 'edit', input: { file_path: 'a.txt', old_string: 'alpha', new_string: 'beta' } }] },
      { toolCalls: [{ name: 'edit', input: { file_path: 'a.txt', old_string: 'beta', new_string: 'gamma' } }] },
      { text: 'Done.' },
    ]);
    const sessionId = await newSession(dir);
    agent!.beforeWrite = async () => {
      agent!.beforeWrite = undefined;
      await agent!.agent.notify('session/cancel', { sessionId });
      await sleep(300);
    };
    expect(await prompt(sessionId, 'beta it')).toEqual({ stopReason: 'cancelled' });
    expect(readFileSync(file, 'utf8')).toBe('beta\n');
    expect(await prompt(sessionId, 'now gamma')).toEqual({ stopReason: 'end_turn' });
    expect(toolResultsSent(fake!, 3)).toEqual([
      `<result>\nContent replaced in file: ${file}\n</result>\n<snippet>\n     1|gamma\n</snippet>\n`,
    ]);
    expect(readFileSync(file, 'utf8')).toBe('gamma\n');
  });

  it('two sessions: a session that read the file before the other one changed it must read it again before overwriting', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-acp-two-sessions-'));
    const file = join(dir, 'a.txt');
    writeFileSync(file, 'alpha\n');
    const write = (content: string) => ({ toolCalls: [{ name: 'write', input: { file_path: 'a.txt', content } }] });
    await startAgent(dir, [
      VIEW_A,
      { text: 'A read.' },
      VIEW_A,
      { text: 'B read.' },
      write('from A\n'),
      { text: 'A wrote.' },
      write('from B\n'),
      { text: 'B must read.' },
    ]);
    const a = await newSession(dir);
    const b = await newSession(dir);
    expect(await prompt(a, 'read')).toEqual({ stopReason: 'end_turn' });
    expect(await prompt(b, 'read')).toEqual({ stopReason: 'end_turn' });
    expect(await prompt(a, 'write')).toEqual({ stopReason: 'end_turn' });
    expect(await prompt(b, 'write')).toEqual({ stopReason: 'end_turn' });
    expect(toolResultsSent(fake!, 7)).toEqual([
      `File ${file} was changed by another session after this session last read it.\n\nRead it again with the view tool before overwriting it.`,
    ]);
    expect(readFileSync(file, 'utf8')).toBe('from A\n');
  });
});

describe('opencode acp: a hostile editor, continued', () => {
  it('an editor that never confirms a write: the edit fails after the timeout saying the buffer may hold the change; the turn goes on', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-acp-write-never-'));
    const file = join(dir, 'a.txt');
    writeFileSync(file, 'alpha\n');
    await startAgent(
      dir,
      [
        VIEW_A,
        { toolCalls: [{ name: 'edit', input: { file_path: 'a.txt', old_string: 'alpha', new_string: 'beta' } }] },
        { text: 'Unknown.' },
      ],
      { OPENCODE_ACP_FS_TIMEOUT_MS: '500' },
    );
    const sessionId = await newSession(dir);
    agent!.beforeWrite = () => new Promise(() => {});
    expect(await prompt(sessionId, 'beta it')).toEqual({ stopReason: 'end_turn' });
    expect(toolResultsSent(fake!, 2)).toEqual([
      `The editor did not confirm fs/write_text_file of ${file} within 0.5 s: the change may or may not be in its buffer. Read the file again with the view tool to see which.`,
    ]);
    expect(readFileSync(file, 'utf8')).toBe('alpha\n');
    expectOnlyJsonRpc(agent!);
  });

  it('two sessions on the disk (an editor without fs methods): the one that read before the other wrote must read again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-acp-two-sessions-disk-'));
    const file = join(dir, 'a.txt');
    writeFileSync(file, 'alpha\n');
    const write = (content: string) => ({ toolCalls: [{ name: 'write', input: { file_path: 'a.txt', content } }] });
    fake = await acp.startFake(
      [
        VIEW_A,
        { text: 'A read.' },
        VIEW_A,
        { text: 'B read.' },
        write('from A\n'),
        { text: 'A wrote.' },
        write('from B\n'),
        { text: 'B must read.' },
      ],
      {
        sideTurn: titleTurn('Disk'),
      },
    );
    agent = acp.startAgent({
      cwd: dir,
      env: cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.anthropicBaseURL }),
    });
    await agent.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
    const a = await newSession(dir);
    const b = await newSession(dir);
    for (const [session, text] of [
      [a, 'read'],
      [b, 'read'],
      [a, 'write'],
      [b, 'write'],
    ])
      expect(await prompt(session, text)).toEqual({ stopReason: 'end_turn' });
    expect(toolResultsSent(fake, 7)).toEqual([
      `File ${file} was changed by another session after this session last read it.\n\nRead it again with the view tool before overwriting it.`,
    ]);
    expect(readFileSync(file, 'utf8')).toBe('from A\n');
  });

  it('session/close while the turn waits for a permission answer: the question is withdrawn, the prompt ends cancelled, the session is gone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-acp-close-turn-'));
    await startAgent(dir, [
      { toolCalls: [{ name: 'bash', input: { command: 'touch made-by-bash' } }] },
      { text: 'never' },
    ]);
    const sessionId = await newSession(dir);
    let closed: Promise<unknown> | undefined;
    agent!.answer = (_request, signal) =>
      new Promise((resolve) => {
        signal.addEventListener('abort', () => resolve({ outcome: { outcome: 'cancelled' } }));
        closed = agent!.agent.request('session/close', { sessionId });
      });
    expect(await prompt(sessionId, 'make a file')).toEqual({ stopReason: 'cancelled' });
    expect(await closed).toEqual({});
    await expect(prompt(sessionId, 'hello?')).rejects.toMatchObject({ code: -32002 });
    expect(readdirSync(dir).includes('made-by-bash')).toBe(false);
    // the stored session can be loaded again
    expect(await agent!.agent.request('session/load', { sessionId, cwd: dir, mcpServers: [] })).toEqual({});
    expectOnlyJsonRpc(agent!);
  });

  it('malformed mcpServers are refused with invalid params; the process keeps serving', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-acp-bad-mcp-'));
    await startAgent(dir, [{ text: 'Fine.' }]);
    for (const mcpServers of [
      'nope',
      [{ name: 'x' }],
      [{ type: 'http', name: 'h' }],
      [{ name: 'x', command: 'c', args: 'a', env: [] }],
      [null],
    ]) {
      await expect(agent!.agent.request('session/new', { cwd: dir, mcpServers } as never)).rejects.toMatchObject({
        code: -32602,
      });
    }
    const sessionId = await newSession(dir);
    expect(await prompt(sessionId, 'hello')).toEqual({ stopReason: 'end_turn' });
    expectOnlyJsonRpc(agent!);
  });

  it("a CRLF file edited through a buffer the editor holds with \\n endings: the editor gets the text with the file's CRLF", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-acp-crlf-'));
    const file = join(dir, 'a.txt');
    writeFileSync(file, 'one\r\ntwo\r\n');
    await startAgent(dir, [
      VIEW_A,
      { toolCalls: [{ name: 'edit', input: { file_path: 'a.txt', old_string: 'two', new_string: 'TWO' } }] },
      { text: 'Done.' },
    ]);
    const sessionId = await newSession(dir);
    // an editor keeps \n in memory and says nothing of the file's endings; this buffer has an unsaved line
    agent!.buffers.set(file, 'one\ntwo\nunsaved\n');
    expect(await prompt(sessionId, 'capitalise two')).toEqual({ stopReason: 'end_turn' });
    expect(agent!.writes.map((w) => w.content)).toEqual(['one\r\nTWO\r\nunsaved\r\n']);
    expect(readFileSync(file, 'utf8')).toBe('one\r\nTWO\r\nunsaved\r\n');
  });

  it('a Latin-1 file the editor decoded as UTF-8 (U+FFFD in the buffer): the edit is refused, the file is not damaged', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-acp-latin1-'));
    const file = join(dir, 'a.txt');
    writeFileSync(file, Buffer.from('caf\xe9\nbar\n', 'latin1'));
    await startAgent(dir, [
      VIEW_A,
      { toolCalls: [{ name: 'edit', input: { file_path: 'a.txt', old_string: 'bar', new_string: 'BAR' } }] },
      { text: 'Refused.' },
    ]);
    const sessionId = await newSession(dir);
    agent!.onRead = () => ({ content: 'caf\uFFFD\nbar\n' });
    expect(await prompt(sessionId, 'capitalise bar')).toEqual({ stopReason: 'end_turn' });
    expect(toolResultsSent(fake!, 1)).toEqual([
      '<file>\n(file encoding: ISO-8859-9)\n     1|caf\uFFFD\n     2|bar\n</file>\n',
    ]);
    expect(toolResultsSent(fake!, 2)).toEqual([
      `The editor's text of ${file} holds "\uFFFD" (U+FFFD, line 1), which the file's encoding on disk (ISO-8859-9) cannot store: the editor probably opened it in another encoding. Nothing was changed. Ask the person to reopen the file in the editor as ISO-8859-9, then read it again with view.`,
    ]);
    expect(agent!.writes).toEqual([]);
    expect(readFileSync(file)).toEqual(Buffer.from('caf\xe9\nbar\n', 'latin1'));
  });

  it("session/cancel during an edit's permission question: the question is withdrawn, nothing is written", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-acp-edit-perm-cancel-'));
    const file = join(dir, 'a.txt');
    writeFileSync(file, 'alpha\n');
    await startAgent(dir, [
      VIEW_A,
      { toolCalls: [{ name: 'edit', input: { file_path: 'a.txt', old_string: 'alpha', new_string: 'beta' } }] },
      { text: 'never' },
    ]);
    const sessionId = await newSession(dir);
    agent!.answer = (_request, signal) =>
      new Promise((resolve) => {
        signal.addEventListener('abort', () => resolve({ outcome: { outcome: 'cancelled' } }));
        void agent!.agent.notify('session/cancel', { sessionId });
      });
    expect(await prompt(sessionId, 'beta it')).toEqual({ stopReason: 'cancelled' });
    expect(agent!.writes).toEqual([]);
    expect(readFileSync(file, 'utf8')).toBe('alpha\n');
  });

  it('session/cancel while the editor applies the first file of a patch: the rest is not sent, the first gets its text back, nothing is deleted', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-acp-patch-cancel-'));
    const [a, b, old] = ['a.txt', 'b.txt', 'old.txt'].map((name) => join(dir, name));
    writeFileSync(a, 'a = 1\n');
    writeFileSync(b, 'b = 1\n');
    writeFileSync(old, 'gone\n');
    const patch = [
      '*** Begin Patch',
      '*** Update File: a.txt',
      '@@',
      '-a = 1',
      '+a = 2',
      '*** Update File: b.txt',
      '@@',
      '-b = 1',
      '+b = 2',
      '*** Delete File: old.txt',
      '*** End Patch',
    ].join('\n');
    await startAgent(dir, [
      { toolCalls: ['a.txt', 'b.txt', 'old.txt'].map((file_path) => ({ name: 'view', input: { file_path } })) },
      { toolCalls: [{ name: 'patch', input: { patch_text: patch } }] },
      { text: 'never' },
    ]);
    const sessionId = await newSession(dir);
    agent!.beforeWrite = async () => {
      agent!.beforeWrite = undefined;
      await agent!.agent.notify('session/cancel', { sessionId });
      await sleep(300);
    };
    expect(await prompt(sessionId, 'patch them')).toEqual({ stopReason: 'cancelled' });
    expect(agent!.writes.map((w) => [w.path, w.content])).toEqual([
      [a, 'a = 2\n'],
      [a, 'a = 1\n'],
    ]);
    expect([readFileSync(a, 'utf8'), readFileSync(b, 'utf8'), readFileSync(old, 'utf8')]).toEqual([
      'a = 1\n',
      'b = 1\n',
      'gone\n',
    ]);
    expectOnlyJsonRpc(agent!);
  });

  it('the editor goes away (stdin closed) while a read is unanswered: the agent process exits', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-acp-gone-'));
    writeFileSync(join(dir, 'a.txt'), 'on disk\n');
    await startAgent(dir, [VIEW_A, { text: 'never' }]);
    const sessionId = await newSession(dir);
    let reading!: () => void;
    const read = new Promise<void>((resolve) => (reading = resolve));
    agent!.onRead = () => {
      reading();
      return new Promise(() => {});
    };
    void prompt(sessionId, 'read a.txt').catch(() => undefined);
    await read;
    expect(await agent!.close()).toBe(0);
    expectOnlyJsonRpc(agent!);
  });

  it('the editor stops answering reads while the permission question is open: the edit fails with the timeout, not with "changed"', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-acp-read-after-perm-'));
    const file = join(dir, 'a.txt');
    writeFileSync(file, 'alpha\n');
    await startAgent(
      dir,
      [
        VIEW_A,
        { toolCalls: [{ name: 'edit', input: { file_path: 'a.txt', old_string: 'alpha', new_string: 'beta' } }] },
        { text: 'Stuck.' },
      ],
      {
        OPENCODE_ACP_FS_TIMEOUT_MS: '500',
      },
    );
    const sessionId = await newSession(dir);
    agent!.answer = () => {
      agent!.onRead = () => new Promise(() => {});
      return { outcome: { outcome: 'selected', optionId: 'allow' } };
    };
    expect(await prompt(sessionId, 'beta it')).toEqual({ stopReason: 'end_turn' });
    expect(toolResultsSent(fake!, 2)).toEqual([
      `The editor did not answer fs/read_text_file for ${file} within 0.5 s. Try again; if it keeps happening, the editor is stuck: restart the agent from the editor.`,
    ]);
    expect(agent!.writes).toEqual([]);
  });
});
