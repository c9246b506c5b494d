/**
 * The TUI running in this process for the benchmarks, without a terminal: the real TUI (`runTui`) on
 * a fake TTY stdout (120×40, write times recorded) and stdin, over in-memory {@link ChatServices}
 * holding a session of N messages (user prompts; assistant markdown with code blocks; bash/view/edit
 * calls and their results).
 */
import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { AgentEvents } from '../src/agent/events.js';
import type { Session } from '../src/db/session-store.js';
import { EventBus } from '../src/events/bus.js';
import type { Message, MessagePart } from '../src/message.js';
import { catalogModel, DEFAULT_MODELS } from '../src/provider/catalog.js';
import type { ChatServices } from '../src/tui/state/services.js';

const COLUMNS = 120;
const ROWS = 40;
export const MODEL = catalogModel(DEFAULT_MODELS.anthropic.coder)!;
/** The escape sequences Ink writes, stripped before looking for text in a write. */
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b[()][0-9A-Za-z]|\u001b[=>78]/g;
export const sleep = (msToWait: number) => new Promise((resolve) => setTimeout(resolve, msToWait));

/** A TTY-like stdout for Ink: 120×40, records every write with its time. */
export class FakeStdout extends EventEmitter {
  readonly isTTY = true;
  readonly columns = COLUMNS;
  readonly rows = ROWS;
  readonly fd = 1;
  bytes = 0;
  writes = 0;
  /** resolves the waiter when a write (ANSI stripped) contains its text */
  private waiter: { text: string; resolve: (t: number) => void } | undefined;
  write(chunk: string | Uint8Array, ...rest: unknown[]): boolean {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    this.bytes += Buffer.byteLength(text);
    this.writes++;
    if (this.waiter && text.replace(ANSI, '').includes(this.waiter.text)) {
      const { resolve } = this.waiter;
      this.waiter = undefined;
      resolve(performance.now());
    }
    const callback = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
    callback?.();
    return true;
  }
  /** the time of the next write containing `text` */
  nextWriteWith(text: string): Promise<number> {
    return new Promise((resolve) => (this.waiter = { text, resolve }));
  }
  hasColors = () => true;
  getColorDepth = () => 24;
  cursorTo = () => true;
}

/** A TTY-like stdin for Ink (as ink-testing-library's): `write` delivers keys. */
export class FakeStdin extends EventEmitter {
  readonly isTTY = true;
  private data: string | null = null;
  write(data: string): void {
    this.data = data;
    this.emit('readable');
    this.emit('data', data);
  }
  read(): string | null {
    const { data } = this;
    this.data = null;
    return data;
  }
  setEncoding() {}
  setRawMode() {}
  resume() {}
  pause() {}
  ref() {}
  unref() {}
}

/** Assistant markdown as a model writes it: a code block, a list, a link, a table. */
export const MARKDOWN = [
  'Here is what I found in `src/add.js`:',
  '',
  '```ts\nexport function add(a: number, b: number): number {\n  return a + b;\n}\n```',
  '',
  '- the function is **pure**',
  '- it has _no_ tests yet; see [the docs](https://example.com/docs)',
  '',
  '| file | lines |\n| --- | --- |\n| add.js | 3 |',
].join('\n');

/** A session of `n` messages: user, assistant (markdown + a tool call), tool (its result), assistant (markdown). */
/**
 * Appends a message of `role` to a session's `messages` as the store holds it once finished, made at
 * `time` (ms since the epoch): an assistant's or a tool's parts end with the finish part the agent adds.
 */
export function pushStored(
  messages: Message[],
  sessionId: string,
  role: Message['role'],
  parts: MessagePart[],
  time: number,
): void {
  const finish: MessagePart = {
    type: 'finish',
    reason: parts.some((p) => p.type === 'tool_call') ? 'tool_use' : 'end_turn',
    time,
  };
  messages.push({
    id: `msg_${messages.length}`,
    sessionId,
    role,
    parts: role === 'user' ? parts : [...parts, finish],
    model: role === 'assistant' ? MODEL.id : undefined,
    seq: messages.length,
    createdAt: time,
    updatedAt: time,
    finishedAt: time,
  });
}

function makeSession(sessionId: string, n: number): Message[] {
  const messages: Message[] = [];
  const tools = [
    {
      name: 'bash',
      input: { command: 'npm test', description: 'Run the tests' },
      result: 'PASS test/add.test.js\n  ✓ adds (2 ms)\nTests: 1 passed',
      metadata: { exitCode: 0 },
    },
    {
      name: 'view',
      input: { file_path: 'src/add.js' },
      result: '<file>\n     1|export function add(a, b) {\n     2|  return a + b;\n     3|}\n</file>',
      metadata: { content: 'export function add(a, b) {\n  return a + b;\n}\n' },
    },
    {
      name: 'edit',
      input: { file_path: 'src/add.js', old_string: 'a + b', new_string: 'b + a' },
      result: 'Edited src/add.js',
      metadata: {
        diff: '--- a/src/add.js\n+++ b/src/add.js\n@@ -1,3 +1,3 @@\n export function add(a, b) {\n-  return a + b;\n+  return b + a;\n }\n',
        additions: 1,
        removals: 1,
      },
    },
  ];
  let t = Date.now() - n * 1000;
  const push = (role: Message['role'], parts: MessagePart[]) =>
    pushStored(messages, sessionId, role, parts, (t += 1000));
  for (let i = 0; messages.length < n; i++) {
    const tool = tools[i % tools.length]!;
    const callId = `toolu_${i}`;
    push('user', [{ type: 'text', text: `Question ${i}: please look at src/add.js and improve it.` }]);
    if (messages.length < n)
      push('assistant', [
        { type: 'text', text: MARKDOWN },
        { type: 'tool_call', id: callId, name: tool.name, input: JSON.stringify(tool.input), finished: true },
      ]);
    if (messages.length < n)
      push('tool', [
        {
          type: 'tool_result',
          toolCallId: callId,
          name: tool.name,
          content: tool.result,
          metadata: tool.metadata,
          isError: false,
        },
      ]);
    if (messages.length < n) push('assistant', [{ type: 'text', text: `Done with step ${i}.\n\n${MARKDOWN}` }]);
  }
  return messages;
}

/** In-memory services: one session of `n` messages; the agent is never run (events are emitted by the bench). */
function memoryServices(
  n: number,
  dataDir: string,
  make: (sessionId: string, n: number) => Message[] = makeSession,
): { services: ChatServices; session: Session; messages: Message[] } {
  const now = Date.now();
  const session: Session = {
    id: 'ses_bench',
    title: `Bench session of ${n} messages`,
    messageCount: n,
    promptTokens: 1000,
    completionTokens: 500,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    contextTokens: 1500,
    costUsd: 0.01,
    createdAt: now,
    updatedAt: now,
  };
  const messages = make(session.id, n);
  session.messageCount = messages.length;
  const services: ChatServices = {
    cwd: dataDir,
    version: 'bench',
    bus: new EventBus<AgentEvents>(),
    permission: { onRequest: () => () => {}, onResolved: () => () => {}, respond: () => {}, pendingRequests: () => [] },
    sessions: {
      list: () => [session],
      get: (id) => (id === session.id ? session : undefined),
      create: () => session,
      messages: (id) => (id === session.id ? messages : []),
      modifiedFiles: () => [],
      rename: () => session,
      delete: () => {},
    },
    undo: () => Promise.reject(new Error('nothing to undo in the bench')),
    redo: () => Promise.reject(new Error('nothing to redo in the bench')),
    agent: {
      run: () => new Promise(() => {}),
      cancel: () => {},
      isBusy: () => false,
      model: () => MODEL,
    },
    models: async () => [],
    setModel: async () => ({ file: '', keyPath: 'agents.coder.model' }),
    setTheme: () => {},
    mcp: { servers: () => [], onUpdate: () => () => {} },
    lspServers: [],
    dataDir,
    userCommandDirs: [],
    init: { prompt: '', isInitialized: () => true, markInitialized: () => {} },
  };
  return { services, session, messages };
}

/** The TUI running in this process on the fake terminal. */
export interface Mounted {
  stdin: FakeStdin;
  stdout: FakeStdout;
  services: ChatServices;
  session: Session;
  unmount(): Promise<void>;
}

/**
 * Runs the TUI in this process on the fake TTY over a session of `n` messages (made by `make`), and
 * resolves once its first frame naming the model (or containing `openedWhen`) was written.
 * `openedMs`: runTui → that frame.
 */
export async function mount(
  n: number,
  make?: (sessionId: string, n: number) => Message[],
  openedWhen = MODEL.name,
): Promise<Mounted & { openedMs: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'opencode-bench-tui-'));
  const { services, session } = memoryServices(n, dir, make);
  const stdin = new FakeStdin();
  const stdout = new FakeStdout();
  const { runTui } = await import('../src/tui/run.js');
  const consoleBefore = { ...console };
  const first = stdout.nextWriteWith(openedWhen);
  const t0 = performance.now();
  const done = runTui({
    services,
    debug: false,
    stdin: stdin as unknown as NodeJS.ReadStream,
    stdout: stdout as unknown as NodeJS.WriteStream,
  });
  const openedMs = (await Promise.race([first, sleep(60_000).then(() => NaN)])) - t0;
  if (Number.isNaN(openedMs)) throw new Error(`the TUI never showed "${openedWhen}"`);
  await sleep(200); // let the first frame's follow-ups (measurements, sidebar) settle
  return {
    openedMs,
    stdin,
    stdout,
    services,
    session,
    async unmount() {
      stdin.write('\u0003'); // ctrl+c: "Quit opencode?"
      await sleep(100);
      stdin.write('y');
      await Promise.race([done, sleep(3000)]);
      Object.assign(console, consoleBefore); // runTui routes console.* to its log page
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
