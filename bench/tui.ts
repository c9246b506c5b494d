/**
 * The TUI (`npm run bench -- --only tui`):
 * a. start-up as a person meets it, in a real pty through bin/opencode's shebang: skeleton, status
 *    bar, full UI usable (a key echoed), the first keys' latency, RSS ({@link benchTuiStartup}).
 * b. in this process, without a terminal: the real TUI (`runTui`) on a fake TTY stdout (120×40, write
 *    times recorded) and stdin, over in-memory {@link ChatServices} holding a session of N messages
 *    (user prompts; assistant markdown with code blocks; bash/view/edit calls and their results):
 *    (i) key press → a stdout write showing the typed text, 50 presses, N=10 vs N=2000;
 *    (ii) CPU (user+system) while 5,000 tokens stream into a new assistant message through the bus
 *    (`message.updated` with the text so far, a token every 2 ms), N=10 vs N=2000;
 *    (iii) peak RSS of this process during the N=2000 stream.
 * c. a session holding one 1 MiB line in an assistant reply, a code block, a tool result
 *    and a user message: runTui → the first frame, and page up/down key → frame; and a 40 MiB reply
 *    streaming in 64 KiB events: key → frame meanwhile, finish → frame.
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
import { log, median, ms, ratio, stats, type Row } from './lib.js';
import { benchTuiStartup } from './tui-startup.js';

const COLUMNS = 120;
const ROWS = 40;
const MODEL = catalogModel(DEFAULT_MODELS.anthropic.coder)!;
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b[()][0-9A-Za-z]|\u001b[=>78]/g;
const sleep = (msToWait: number) => new Promise((resolve) => setTimeout(resolve, msToWait));

export async function benchTui(opts: { runs: number; presses: number; tokens: number }): Promise<Row[]> {
  const rows = await benchTuiStartup(opts.runs);
  rows.push(...(await inProcess(opts.presses, opts.tokens)));
  rows.push(...(await hugeLineRows(Math.min(20, opts.presses))));
  rows.push(...(await hugeStreamRows()));
  return rows;
}

// ---------------------------------------------------------------- b. in process

/** A TTY-like stdout for Ink: 120×40, records every write with its time. */
class FakeStdout extends EventEmitter {
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
class FakeStdin extends EventEmitter {
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

const MARKDOWN = [
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
function makeSession(sessionId: string, n: number): Message[] {
  const messages: Message[] = [];
  const tools = [
    { name: 'bash', input: { command: 'npm test', description: 'Run the tests' }, result: 'PASS test/add.test.js\n  ✓ adds (2 ms)\nTests: 1 passed', metadata: { exitCode: 0 } },
    { name: 'view', input: { file_path: 'src/add.js' }, result: '<file>\n     1|export function add(a, b) {\n     2|  return a + b;\n     3|}\n</file>', metadata: { content: 'export function add(a, b) {\n  return a + b;\n}\n' } },
    { name: 'edit', input: { file_path: 'src/add.js', old_string: 'a + b', new_string: 'b + a' }, result: 'Edited src/add.js', metadata: { diff: '--- a/src/add.js\n+++ b/src/add.js\n@@ -1,3 +1,3 @@\n export function add(a, b) {\n-  return a + b;\n+  return b + a;\n }\n', additions: 1, removals: 1 } },
  ];
  let t = Date.now() - n * 1000;
  const push = (role: Message['role'], parts: MessagePart[]) => {
    t += 1000;
    const finished = role === 'user' ? parts : [...parts, { type: 'finish' as const, reason: parts.some((p) => p.type === 'tool_call') ? ('tool_use' as const) : ('end_turn' as const), time: t }];
    messages.push({ id: `msg_${messages.length}`, sessionId, role, parts: finished, model: role === 'assistant' ? MODEL.id : undefined, seq: messages.length, createdAt: t, updatedAt: t, finishedAt: t });
  };
  for (let i = 0; messages.length < n; i++) {
    const tool = tools[i % tools.length]!;
    const callId = `toolu_${i}`;
    push('user', [{ type: 'text', text: `Question ${i}: please look at src/add.js and improve it.` }]);
    if (messages.length < n) push('assistant', [{ type: 'text', text: MARKDOWN }, { type: 'tool_call', id: callId, name: tool.name, input: JSON.stringify(tool.input), finished: true }]);
    if (messages.length < n) push('tool', [{ type: 'tool_result', toolCallId: callId, name: tool.name, content: tool.result, metadata: tool.metadata, isError: false }]);
    if (messages.length < n) push('assistant', [{ type: 'text', text: `Done with step ${i}.\n\n${MARKDOWN}` }]);
  }
  return messages;
}

/** In-memory services: one session of `n` messages; the agent is never run (events are emitted by the bench). */
function memoryServices(n: number, dataDir: string, make: (sessionId: string, n: number) => Message[] = makeSession): { services: ChatServices; session: Session; messages: Message[] } {
  const now = Date.now();
  const session: Session = {
    id: 'ses_bench', title: `Bench session of ${n} messages`, messageCount: n, promptTokens: 1000, completionTokens: 500,
    cacheReadTokens: 0, cacheWriteTokens: 0, contextTokens: 1500, costUsd: 0.01, createdAt: now, updatedAt: now,
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

interface Mounted {
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
export async function mount(n: number, make?: (sessionId: string, n: number) => Message[], openedWhen = MODEL.name): Promise<Mounted & { openedMs: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'opencode-bench-tui-'));
  const { services, session } = memoryServices(n, dir, make);
  const stdin = new FakeStdin();
  const stdout = new FakeStdout();
  const { runTui } = await import('../src/tui/run.js');
  const consoleBefore = { ...console };
  const first = stdout.nextWriteWith(openedWhen);
  const t0 = performance.now();
  const done = runTui({ services, debug: false, stdin: stdin as unknown as NodeJS.ReadStream, stdout: stdout as unknown as NodeJS.WriteStream });
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

/** Key press → a frame showing it: `presses` letters typed into the editor, one at a time. */
async function keyToFrame(ui: Mounted, presses: number): Promise<number[]> {
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  let typed = '';
  const times: number[] = [];
  for (let i = 0; i < presses; i++) {
    const ch = letters[i % letters.length]!;
    typed += ch;
    // the editor line is written whole: wait for the text typed so far (a lone letter could come from elsewhere)
    const shown = ui.stdout.nextWriteWith(typed.slice(-20));
    const t0 = performance.now();
    ui.stdin.write(ch);
    const t1 = await Promise.race([shown, sleep(2000).then(() => NaN)]);
    if (Number.isNaN(t1)) throw new Error(`key press ${i + 1} ("${ch}") never reached the screen`);
    times.push(t1 - t0);
    await sleep(20); // idle between presses, as a person types
  }
  return times;
}

interface StreamCost {
  cpuMs: number;
  wallMs: number;
  peakRssMb: number;
}

/**
 * Streams `tokens` tokens (one every 2 ms) into a new assistant message of `sessionId` through `bus`,
 * as the agent does: `run.started`, `message.created`, `message.updated` with the text so far, the
 * finish, `run.finished`. Returns the CPU time (user+system) and the peak RSS meanwhile.
 */
export async function streamTokens(bus: ChatServices['bus'], sessionId: string, tokens: number): Promise<StreamCost> {
  const words = MARKDOWN.split(/(?<=\s)/);
  const now = Date.now();
  const message: Message = { id: 'msg_stream', sessionId, role: 'assistant', parts: [{ type: 'text', text: '' }], model: MODEL.id, seq: 1e6, createdAt: now, updatedAt: now };
  let peakRss = process.memoryUsage.rss();
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 25);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  bus.emit('run.started', { sessionId });
  bus.emit('message.created', { message: { ...message, parts: [] } });
  let sent = 0;
  let text = '';
  while (sent < tokens) {
    await sleep(2);
    // tokens owed by the clock: a busy event loop gets them in bigger chunks, as from a real stream
    const due = Math.min(tokens, Math.floor((performance.now() - t0) / 2) + 1);
    for (; sent < due; sent++) text += words[sent % words.length];
    bus.emit('message.updated', { message: { ...message, parts: [{ type: 'text', text }], updatedAt: Date.now() } });
  }
  const finished: Message = { ...message, parts: [{ type: 'text', text }, { type: 'finish', reason: 'end_turn', time: Date.now() }], finishedAt: Date.now() };
  bus.emit('message.updated', { message: finished });
  bus.emit('run.finished', { sessionId, reason: 'end_turn', message: finished, usage: { input: 10, output: tokens, cacheRead: 0, cacheWrite: 0 }, costUsd: 0 });
  await sleep(100); // the last frame
  const cpu = process.cpuUsage(cpu0);
  const wallMs = performance.now() - t0;
  clearInterval(sampler);
  return { cpuMs: (cpu.user + cpu.system) / 1000, wallMs, peakRssMb: peakRss / 2 ** 20 };
}

const HUGE_LINE_CHARS = 1024 * 1024;
const OPENED_MARK = 'END-OF-SESSION';

/** A 1 MiB line of prose-like ASCII words (no newline). */
function hugeLine(): string {
  const words = 'the quick brown fox jumps over the lazy dog while the model keeps writing one very long line ';
  return words.repeat(Math.ceil(HUGE_LINE_CHARS / words.length)).slice(0, HUGE_LINE_CHARS);
}

/** Where the 1 MiB line sits: the session is a prompt, the line's message(s), and a short final reply. */
const HUGE_CASES: Record<string, (line: string, call: string) => MessagePart[][]> = {
  'assistant reply': (line) => [[{ type: 'text', text: line }]],
  'code block': (line) => [[{ type: 'text', text: `Here it is:\n\n\`\`\`js\nconst data = "${line}";\n\`\`\`\n` }]],
  'tool result': (line, call) => [
    [{ type: 'tool_call', id: call, name: 'bash', input: JSON.stringify({ command: 'cat big.txt', description: 'Show the file' }), finished: true }],
    [{ type: 'tool_result', toolCallId: call, name: 'bash', content: line, metadata: { exitCode: 0 }, isError: false }],
  ],
  'user message': (line) => [[{ type: 'text', text: line }]],
};

function hugeSession(kind: string, chars = HUGE_LINE_CHARS): (sessionId: string) => Message[] {
  return (sessionId) => {
    const t = Date.now();
    const messages: Message[] = [];
    const push = (role: Message['role'], parts: MessagePart[]) => {
      const finished = role === 'user' ? parts : [...parts, { type: 'finish' as const, reason: parts.some((p) => p.type === 'tool_call') ? ('tool_use' as const) : ('end_turn' as const), time: t }];
      messages.push({ id: `msg_${messages.length}`, sessionId, role, parts: finished, model: role === 'assistant' ? MODEL.id : undefined, seq: messages.length, createdAt: t, updatedAt: t, finishedAt: t });
    };
    const blocks = HUGE_CASES[kind]!(hugeLine().slice(0, chars), 'toolu_huge');
    if (kind === 'user message') push('user', blocks[0]!);
    else {
      push('user', [{ type: 'text', text: 'Show me the big thing.' }]);
      blocks.forEach((parts) => push(parts[0]!.type === 'tool_result' ? 'tool' : 'assistant', parts));
    }
    push('assistant', [{ type: 'text', text: `That was it. ${OPENED_MARK}` }]);
    return messages;
  };
}

/** Key → frame for `presses` presses of `key`, each waiting for the next stdout write. */
async function keyToAnyFrame(ui: Mounted, key: string, presses: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < presses; i++) {
    const shown = ui.stdout.nextWriteWith('');
    const t0 = performance.now();
    ui.stdin.write(key);
    // no frame within a second: the list is already at its top (or bottom), nothing left to scroll
    const t1 = await Promise.race([shown, sleep(1000).then(() => NaN)]);
    if (Number.isNaN(t1)) break;
    times.push(t1 - t0);
    await sleep(20);
  }
  return times;
}

/**
 * A session holding one 1 MiB line, in each of the places it can be: runTui → the first
 * frame showing the session's end, then `presses` page-ups and as many page-downs, key → frame.
 */
export async function hugeLineRows(presses: number): Promise<Row[]> {
  const section = 'tui: a 1 MiB single line (fake TTY 120×40)';
  const rows: Row[] = [];
  // the first runTui of the process loads the TUI's modules (~0.3–0.9 s): measured apart, as start-up
  log('tui in-process: a session of the same shape with a 100-character line (warms the modules, baseline)');
  const baseline: number[] = [];
  for (let i = 0; i < 6; i++) {
    const small = await mount(0, hugeSession('assistant reply', 100), OPENED_MARK);
    if (i > 0) baseline.push(small.openedMs);
    await small.unmount();
  }
  rows.push({ section, name: 'baseline: the same session with a 100-character line: open', value: stats(baseline), note: 'runTui → the first frame, modules already loaded: what opening costs without a huge item' });
  for (const kind of Object.keys(HUGE_CASES).filter((k) => !process.env.HUGE_ONLY || k === process.env.HUGE_ONLY)) {
    log(`tui in-process: a 1 MiB line in a ${kind}: open (5 times), ${presses} × page up, ${presses} × page down`);
    const opens: number[] = [];
    for (let i = 0; i < 4; i++) {
      const again = await mount(0, hugeSession(kind), OPENED_MARK);
      opens.push(again.openedMs);
      await again.unmount();
    }
    const ui = await mount(0, hugeSession(kind), OPENED_MARK);
    opens.push(ui.openedMs);
    try {
      const up = await keyToAnyFrame(ui, '\u001b[5~', presses);
      const down = await keyToAnyFrame(ui, '\u001b[6~', presses);
      const keys = [...up, ...down];
      rows.push({
        section,
        name: `${kind}: open`,
        value: stats(opens),
        ratio: `max ${ms(Math.max(...opens))}`,
        target: '≤ 50 ms (key → frame)',
        note: 'runTui → the first frame showing the end of the session (modules loaded; rows of the 1 MiB line found by a scan, only the shown ones cut)',
      });
      rows.push({
        section,
        name: `${kind}: page up/down → frame`,
        value: keys.length ? stats(keys) : 'no frames',
        ratio: keys.length ? `max ${ms(Math.max(...keys))}` : undefined,
        target: '≤ 50 ms',
        note: `up to ${presses} page-ups then ${presses} page-downs, 20 ms apart (${up.length} + ${down.length} drew a frame; the rest were at the top or bottom)`,
      });
    } finally {
      await ui.unmount();
    }
  }
  return rows;
}

/**
 * A 40 MiB single-line reply streaming into the TUI as the agent sends it: 640
 * `message.updated` events of 64 KiB more text, one every 5 ms, then the finish with the text cut as
 * the store cuts it. Measured: CPU and wall of the stream, key → frame for letters typed meanwhile,
 * and the time from the finish event to the frame showing the reply's end.
 */
export async function hugeStreamRows(): Promise<Row[]> {
  const section = 'tui: a 40 MiB reply streaming (fake TTY 120×40)';
  log('tui in-process: a 40 MiB single-line reply streaming in 64 KiB events');
  const ui = await mount(0, () => [], MODEL.name);
  try {
    const sessionId = ui.session.id;
    const { bus } = ui.services;
    const chunk = hugeLine().slice(0, 64 * 1024);
    const now = Date.now();
    const message: Message = { id: 'msg_huge', sessionId, role: 'assistant', parts: [], model: MODEL.id, seq: 1, createdAt: now, updatedAt: now };
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    bus.emit('run.started', { sessionId });
    bus.emit('message.created', { message });
    let text = '';
    const keys: number[] = [];
    let typed = '';
    for (let i = 0; i < 640; i++) {
      text += chunk;
      bus.emit('message.updated', { message: { ...message, parts: [{ type: 'text', text }], updatedAt: Date.now() } });
      if (i % 64 === 32) {
        typed += 'abcdefghij'[keys.length % 10];
        const shown = ui.stdout.nextWriteWith(typed);
        const k0 = performance.now();
        ui.stdin.write(typed.at(-1)!);
        const k1 = await Promise.race([shown, sleep(5000).then(() => NaN)]);
        keys.push(k1 - k0);
      } else await sleep(5);
    }
    const { cutMiddle } = await import('../src/db/part-cap.js');
    const stored = cutMiddle(text);
    const end = `${OPENED_MARK}`;
    const finished: Message = { ...message, parts: [{ type: 'text', text: `${stored} ${end}` }, { type: 'finish', reason: 'end_turn', time: Date.now() }], finishedAt: Date.now() };
    const shownEnd = ui.stdout.nextWriteWith(end);
    const f0 = performance.now();
    bus.emit('message.updated', { message: finished });
    bus.emit('run.finished', { sessionId, reason: 'end_turn', message: finished, usage: { input: 10, output: 1, cacheRead: 0, cacheWrite: 0 }, costUsd: 0 });
    const finishMs = (await Promise.race([shownEnd, sleep(30_000).then(() => NaN)])) - f0;
    const cpu = process.cpuUsage(cpu0);
    const wallMs = performance.now() - t0;
    const ok = keys.filter((k) => !Number.isNaN(k));
    return [
      { section, name: 'stream: wall / CPU', value: `${ms(wallMs)} / ${ms((cpu.user + cpu.system) / 1000)}`, note: '640 updates of +64 KiB, 5 ms apart (the events alone take ~3.5 s of wall), then the finish' },
      { section, name: 'key → frame while it streams', value: ok.length ? stats(ok) : 'none', ratio: `${ok.length} of ${keys.length} shown`, target: '≤ 50 ms', note: 'a letter typed every 64 updates → the frame showing it' },
      { section, name: 'finish → frame with the whole (cut) reply', value: ms(finishMs), note: 'the finished 4 MiB reply laid out once (markdown + wrap), its end on screen' },
    ];
  } finally {
    await ui.unmount();
  }
}

async function inProcess(presses: number, tokens: number): Promise<Row[]> {
  // Ink renders differently under CI (is-in-ci reads the environment when ink is first imported)
  for (const name of ['CI', 'CONTINUOUS_INTEGRATION']) delete process.env[name];
  // as the bundle (scripts/build.mjs): React's production build; must be set before React is first imported
  process.env.NODE_ENV = 'production';
  log(`tui in-process: ${tokens} streamed tokens with no UI subscribed (the loop's own cost)`);
  const alone = await streamTokens(new EventBus<AgentEvents>(), 'ses_none', tokens);
  const results: Record<number, { keys: number[]; stream: StreamCost & { frames: number }; rssBeforeMb: number }> = {};
  for (const n of [10, 2000]) {
    log(`tui in-process: session of ${n} messages: ${presses} key presses, then ${tokens} streamed tokens`);
    const rssBeforeMb = process.memoryUsage.rss() / 2 ** 20;
    const ui = await mount(n);
    try {
      await keyToFrame(ui, 5); // warm-up
      const keys = await keyToFrame(ui, presses);
      const writesBefore = ui.stdout.writes;
      const stream = { ...(await streamTokens(ui.services.bus, ui.session.id, tokens)), frames: ui.stdout.writes - writesBefore };
      results[n] = { keys, stream, rssBeforeMb };
    } finally {
      await ui.unmount();
    }
  }
  const small = results[10]!;
  const big = results[2000]!;
  const section = 'tui in-process (fake TTY 120×40)';
  const streamNote = (r: typeof small) => `${ms(r.stream.wallMs)} wall, ${r.stream.frames} stdout writes`;
  return [
    { section, name: 'key → frame, N=10', value: stats(small.keys), ratio: '1.00×', note: `one letter typed into the editor → the stdout write showing it; ${presses} presses, 20 ms apart` },
    { section, name: 'key → frame, N=2000', value: stats(big.keys), ratio: ratio(median(big.keys), median(small.keys)), note: 'same, with a 2,000-message session open (markdown, code blocks, tool calls)' },
    { section, name: `stream ${tokens} tokens: CPU, no UI`, value: ms(alone.cpuMs), note: `the event loop alone (bus without subscribers): ${ms(alone.wallMs)} wall` },
    { section, name: `stream ${tokens} tokens: CPU, N=10`, value: ms(small.stream.cpuMs), ratio: '1.00×', note: `process.cpuUsage user+system, a token every 2 ms via message.updated; ${streamNote(small)}` },
    { section, name: `stream ${tokens} tokens: CPU, N=2000`, value: ms(big.stream.cpuMs), ratio: ratio(big.stream.cpuMs, small.stream.cpuMs), note: streamNote(big) },
    {
      section,
      name: 'peak RSS while streaming, N=2000',
      value: `${big.stream.peakRssMb.toFixed(0)} MB`,
      ratio: `N=10: ${small.stream.peakRssMb.toFixed(0)} MB`,
      note: `this whole bench process (tsx included), sampled every 25 ms; ${big.rssBeforeMb.toFixed(0)} MB before mounting`,
    },
  ];
}
