/**
 * An ACP client built with the official SDK that spawns the built `bin/opencode acp` and records what
 * the agent sends: every stdout line as written, the `session/update`s, permission questions and file
 * writes. The editor's side is real enough for the agent: `fs/write_text_file` writes the file (an
 * editor saves its buffer; with `saveWrites` false it only changes the buffer), `fs/read_text_file`
 * reads it (or answers an unsaved buffer the test set), permission questions are answered by a
 * function the test sets.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { Readable, Writable } from 'node:stream';
import {
  client,
  methods,
  ndJsonStream,
  RequestError,
  type ClientCapabilities,
  type ClientContext,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionNotification,
  type SessionUpdate,
  type WriteTextFileRequest,
} from '@agentclientprotocol/sdk';
import { systemPrompt } from '../../src/agent/prompts.js';
import { BIN } from '../support/cli.js';
import type { FakeProvider, FakeTurn } from '../support/fake-provider.js';

export interface AcpAgentProcess {
  /** calls the agent's methods */
  agent: ClientContext;
  /** every line the agent wrote to stdout, as written */
  stdoutLines(): string[];
  stderr(): string;
  updates: SessionNotification[];
  permissionRequests: RequestPermissionRequest[];
  writes: WriteTextFileRequest[];
  /** paths read through `fs/read_text_file` */
  reads: string[];
  /** unsaved buffers: `fs/read_text_file` answers these texts instead of the file's */
  buffers: Map<string, string>;
  /** `fs/write_text_file` saves the file (default); false: it sets the buffer and leaves the disk alone */
  saveWrites: boolean;
  /** when it returns true for a path, `fs/write_text_file` of it is refused (an editor error), after being recorded in `writes` */
  refuseWrite?: (path: string) => boolean;
  /** when set, answers `fs/read_text_file` in the editor's place (a hostile editor: an error, a huge text, never) */
  onRead?: (path: string, signal: AbortSignal) => { content: string } | Promise<{ content: string }>;
  /** when set, runs before `fs/write_text_file` is applied (after it is recorded): may wait, throw, or cancel the turn */
  beforeWrite?: (path: string, signal: AbortSignal) => void | Promise<void>;
  /** how the next permission questions are answered (default: allow once) */
  answer: (
    request: RequestPermissionRequest,
    signal: AbortSignal,
  ) => RequestPermissionResponse | Promise<RequestPermissionResponse>;
  /** resolves once an update matching `test` arrived (checks those already received first) */
  waitForUpdate(test: (update: SessionUpdate) => boolean): Promise<SessionUpdate>;
  /** closes stdin and waits for the process to exit */
  close(): Promise<number | null>;
  child: ChildProcessWithoutNullStreams;
}

export interface StartOptions {
  cwd: string;
  env: Record<string, string>;
  /** client capabilities given at `initialize` by the test (the helper does not call initialize) */
  capabilities?: ClientCapabilities;
  args?: string[];
}

/** Spawns `bin/opencode acp` and connects a client to it. */
export function startAcpAgent(options: StartOptions): AcpAgentProcess {
  const child = spawn(process.execPath, [BIN, 'acp', ...(options.args ?? [])], {
    cwd: options.cwd,
    env: options.env,
    stdio: 'pipe',
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const waiters: { test: (u: SessionUpdate) => boolean; resolve: (u: SessionUpdate) => void }[] = [];
  const agentProcess: AcpAgentProcess = {
    agent: undefined as unknown as ClientContext,
    stdoutLines: () => stdout.split('\n').filter((l) => l !== ''),
    stderr: () => stderr,
    updates: [],
    permissionRequests: [],
    writes: [],
    reads: [],
    buffers: new Map(),
    saveWrites: true,
    answer: () => ({ outcome: { outcome: 'selected', optionId: 'allow' } }),
    waitForUpdate(test) {
      const found = agentProcess.updates.find((n) => test(n.update));
      if (found) return Promise.resolve(found.update);
      return new Promise((resolve) => waiters.push({ test, resolve }));
    },
    async close() {
      child.stdin.end();
      return exited;
    },
    child,
  };
  const app = client({ name: 'opencode-acp-test' })
    .onNotification(methods.client.session.update, ({ params }) => {
      agentProcess.updates.push(params);
      for (const waiter of [...waiters]) {
        if (waiter.test(params.update)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(params.update);
        }
      }
    })
    .onRequest(methods.client.session.requestPermission, ({ params, signal }) => {
      agentProcess.permissionRequests.push(params);
      return agentProcess.answer(params, signal);
    })
    .onRequest(methods.client.fs.readTextFile, ({ params, signal }) => {
      agentProcess.reads.push(params.path);
      if (agentProcess.onRead) return agentProcess.onRead(params.path, signal);
      return { content: agentProcess.buffers.get(params.path) ?? readFileSync(params.path, 'utf8') };
    })
    .onRequest(methods.client.fs.writeTextFile, async ({ params, signal }) => {
      agentProcess.writes.push(params);
      await agentProcess.beforeWrite?.(params.path, signal);
      if (agentProcess.refuseWrite?.(params.path))
        throw RequestError.invalidParams(undefined, `${basename(params.path)} is read-only in the editor`);
      if (agentProcess.saveWrites) {
        writeFileSync(params.path, params.content);
        agentProcess.buffers.delete(params.path);
      } else agentProcess.buffers.set(params.path, params.content);
      return {};
    });
  const stream = ndJsonStream(
    Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
    Readable.toWeb(child.stdout) as unknown as ReadableStream<Uint8Array>,
  );
  agentProcess.agent = app.connect(stream).agent;
  return agentProcess;
}

/** The text of the tool_result blocks the model got in answered request `n` (Anthropic wire format). */
export function toolResultsSent(f: FakeProvider, n: number): string[] {
  const last = (f.answered[n].messages as { content: unknown }[]).at(-1)!;
  return (last.content as { type: string; content: unknown }[])
    .filter((b) => b.type === 'tool_result')
    .map((b) =>
      typeof b.content === 'string' ? b.content : (b.content as { text: string }[]).map((c) => c.text).join(''),
    );
}

/** The title agent's requests get this title, outside the fake's script. */
export function titleTurn(title: string): (body: { system?: string | { text?: string }[] }) => FakeTurn | undefined {
  const prompt = systemPrompt('title');
  return (body) => {
    const system =
      typeof body.system === 'string' ? body.system : (body.system ?? []).map((b) => b.text ?? '').join('');
    return system === prompt ? { text: title } : undefined;
  };
}

/** An update in a short form for exact comparison: `[kind, text or title, status?]`. */
export function brief(update: SessionUpdate): unknown[] {
  switch (update.sessionUpdate) {
    case 'user_message_chunk':
    case 'agent_message_chunk':
    case 'agent_thought_chunk':
      return [update.sessionUpdate, update.content.type === 'text' ? update.content.text : update.content.type];
    case 'tool_call':
      return ['tool_call', update.toolCallId, update.kind, update.title, update.status];
    case 'tool_call_update':
      return [
        'tool_call_update',
        update.toolCallId,
        ...(update.title ? [update.title] : []),
        ...(update.status ? [update.status] : []),
      ];
    case 'available_commands_update':
      return ['available_commands_update', update.availableCommands.map((c) => c.name)];
    case 'session_info_update':
      return ['session_info_update', update.title];
    default:
      return [update.sessionUpdate];
  }
}
