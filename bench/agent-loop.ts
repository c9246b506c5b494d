/**
 * Agent loop overhead: a scripted session of 50 tool steps (each a `view` of a small file)
 * and a final text turn — 51 provider calls — run in-process through the real agent (real Anthropic SDK
 * and undici over loopback HTTP, a real SQLite file, the built-in tools, the permission service, the
 * event bus). The fake provider runs in a process of its own (bench/fake-provider-child.ts), so its
 * CPU — building and writing the SSE replies, parsing and checking each request — is not counted.
 *
 * The headline figure is our main thread's CPU time per provider call, tools excluded: the thread's
 * on-CPU time ({@link mainThreadCpuClock}) over `agent.run`, minus its on-CPU time between each
 * `tool.started` and `tool.finished`, divided by the provider calls. It counts everything of ours that
 * runs on the main thread — the request build (history → Anthropic params → JSON), the SDK, undici's
 * HTTP and SSE parsing, our stream handling, the streaming store writes, message create/finish, usage,
 * the bus and a subscriber, tool-batch bookkeeping, and the garbage collection all of it causes on that
 * thread — and nothing that is not: the wait for the network (the thread sleeps), the fake's CPU (in
 * its own process), and the time our thread waited for a CPU while another process had it (on this
 * loaded 2-core machine as large as the work; wall time and event-loop "active" time both include it).
 * Beside it: the process's CPU time over the run (all threads, tools included: adds V8's GC helper and
 * compiler threads and the libuv pool) and the wall time with the tools' wall time taken out.
 *
 * Sessions alternating with the headline's run the same loop with the store keeping messages in memory
 * and writing nothing (bench/memory-store.ts): the loop's figure without SQLite, so the share of storage
 * and the floor of everything else are read off the same run.
 *
 * A second variant uses the app's prompt environment (src/app/app.ts) with `projectTree()` of a big
 * project (the search tree), built once per run; its line gives the wall time per step.
 */
import { mkdtempSync, openSync, readSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Agent } from '../src/agent/agent.js';
import type { AgentEvents } from '../src/agent/events.js';
import type { PromptEnvironment } from '../src/agent/prompts.js';
import { PROJECT_TREE_MAX_ENTRIES } from '../src/agent/prompts.js';
import { DEFAULT_CONTEXT_PATHS } from '../src/config/schema.js';
import { openDatabase, type Database } from '../src/db/index.js';
import { EventBus } from '../src/events/bus.js';
import { PermissionService } from '../src/permission/service.js';
import { catalogModel, computeCost, createProvider } from '../src/provider/index.js';
import { FileTimes } from '../src/tools/file-times.js';
import { builtinTools } from '../src/tools/index.js';
import { projectTree } from '../src/tools/ls.js';
import { createShell } from '../src/tools/shell.js';
import { cannedProvider } from './canned-provider.js';
import { memoryStore } from './memory-store.js';
import { startChildFake, type ChildFake, type ChildTurn } from './fake-provider-client.js';
import { log, median, ms, ratio, type Row } from './lib.js';
import type Anthropic from '@anthropic-ai/sdk';

const STEPS = 50;

/** The fake's replies for one session: `steps` `view` calls of `file`, then a text turn. */
function scriptOf(steps: number, file: string): ChildTurn[] {
  const turns: ChildTurn[] = Array.from({ length: steps }, (_, i) => ({
    ...(i === 0 ? { text: { chunk: 'Let me look.', times: 1 } } : {}),
    toolCalls: [{ name: 'view', input: { file_path: file } }],
  }));
  turns.push({ text: { chunk: 'The file exports answer and double. ', times: 8 } });
  return turns;
}

interface SessionTimes {
  wallMs: number;
  /** main-thread on-CPU time over the run, ms ({@link mainThreadCpuClock}) */
  threadMs: number;
  /** process CPU (user + system, all threads) over the run, ms */
  cpuMs: number;
  /** wall and main-thread on-CPU time between tool.started and tool.finished, summed */
  tool: { wallMs: number; threadMs: number };
  /** main-thread on-CPU time in the message/session/log store calls (SQLite writes + JSON), ms */
  storeMs: number;
  /** main-thread on-CPU time between one tool's end and the next tool's start, per step */
  gaps: number[];
  /** provider.call durationMs summed: includes the wait for the fake */
  providerMs: number;
  /** characters of the last request body (system prompt + tools + whole history) */
  lastRequestChars: number;
  calls: number;
}

const cpuMsNow = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};

/**
 * Time the calling thread (the main thread: the event loop) has spent on a CPU, ms, from Linux's
 * `/proc/thread-self/schedstat` (first field: nanoseconds on CPU). Unlike wall or event-loop-active
 * time it leaves out the time the thread waited to run while another process (the fake provider,
 * other load) had the CPU: on a loaded 2-core machine that is as large as the work itself. A
 * `getrusage` and a `pread` per reading (~6 µs on CPU). Elsewhere: `undefined`, and the bench falls
 * back to the event loop's active time.
 *
 * Before the `getrusage` was added, a reading lagged by up to a tick: a window as short as a `view`
 * call (~1 ms) took in loop time around it (the tool CPU came out above its wall time), so the loop
 * overhead was understated: same code, interleaved, 3.3 → 4.7 ms a call in the real variant and
 * 0.35 → 1.07 ms in the canned one (medians, machine at load 3–6).
 */
export function mainThreadCpuClock(): (() => number) | undefined {
  let fd: number;
  try {
    fd = openSync('/proc/thread-self/schedstat', 'r');
  } catch {
    return undefined;
  }
  const buf = Buffer.alloc(128);
  return () => {
    // the kernel brings a thread's schedstat up to date only at a scheduler tick (4 ms at HZ=250) or a
    // context switch, so a bare read lags by up to a tick; getrusage(RUSAGE_SELF) (process.cpuUsage,
    // ~2 µs) first updates the calling thread's runtime (kernel/sched/cputime.c thread_group_cputime)
    process.cpuUsage();
    const n = readSync(fd, buf, 0, buf.length, 0);
    return Number(buf.toString('latin1', 0, n).split(' ')[0]) / 1e6;
  };
}

const eluActiveMs = () => performance.eventLoopUtilization().active;
/** on-CPU ms of the main thread, or its event loop's active ms where /proc has no schedstat */
const threadMsNow = mainThreadCpuClock() ?? eluActiveMs;

/** The headline's measure of one session: its main thread's on-CPU ms per provider call, tools out. */
const loopMsPerCall = (s: SessionTimes) => (s.threadMs - s.tool.threadMs) / s.calls;

/** How a session of {@link oneSession} differs from the headline's. */
interface SessionVariant {
  /** the app's prompt environment with `projectTree()` of this project */
  bigProject?: string;
  /** the provider answers from memory ({@link cannedProvider}) */
  canned?: boolean;
  /**
   * wrap the store calls with the clock (two readings, ~12 µs, per outermost call: ~0.1 ms a provider
   * call), for the store's share; the headline comes from sessions without it
   */
  timeStore?: boolean;
  /** the agent's store keeps messages in memory and writes nothing, and no tool-call log ({@link memoryStore}) */
  memory?: boolean;
}

/** One scripted session. */
async function oneSession(fake: ChildFake, steps: number, variant: SessionVariant = {}): Promise<SessionTimes> {
  const { bigProject, canned = false, timeStore = false, memory = false } = variant;
  const dir = mkdtempSync(join(tmpdir(), 'opencode-bench-agent-'));
  const file = join(dir, 'small.ts');
  writeFileSync(file, 'export const answer = 42;\nexport function double(x: number) {\n  return x * 2;\n}\n');
  if (!canned) await fake.push(scriptOf(steps, file));
  const before = await fake.stats();

  const db = openDatabase(join(dir, '.opencode'));
  const shell = createShell({ cwd: dir });
  const model = catalogModel('anthropic/claude-haiku-4-5')!;
  const provider = canned
    ? cannedProvider(model, steps, file, 'The file exports answer and double. '.repeat(8))
    : createProvider(
        model,
        { providers: {}, env: { ANTHROPIC_API_KEY: 'sk-ant-bench', ANTHROPIC_BASE_URL: fake.url } },
        { baseDelayMs: 1, maxRetries: 0 },
      );
  const bus = new EventBus<AgentEvents>();
  const permission = new PermissionService(dir);
  permission.onRequest((r) => permission.respond(r.id, 'allow'));
  // as app.ts builds it, but with the tree of the big project (the tools still work in `dir`)
  const promptEnvironment = (): PromptEnvironment =>
    bigProject
      ? {
          cwd: dir,
          projectTree: projectTree(bigProject, PROJECT_TREE_MAX_ENTRIES),
          contextPaths: DEFAULT_CONTEXT_PATHS,
        }
      : { cwd: dir, projectTree: `- ${dir}/`, contextPaths: [] };
  const agent = new Agent({
    kind: 'coder',
    provider,
    tools: builtinTools(),
    store: memory ? memoryStore() : db,
    permission,
    bus,
    toolServices: { fileTimes: new FileTimes(), fileHistory: db.files, shellFor: () => shell },
    promptEnvironment,
    maxTokens: 1000,
    computeCost,
    // as the app wires it (src/app/app.ts): every call is written to the tool-call log
    toolCallLog: memory ? undefined : db.toolCalls,
  });
  const sessionId = db.sessions.create({ title: 'bench' }).id;
  // a subscriber as the TUI and -p have one: the bus's fan-out is part of the loop
  bus.on('message.updated', () => {});
  try {
    const storeMs = timeStore ? timeStoreCalls(db) : () => NaN;
    const tool = { wallMs: 0, threadMs: 0 };
    let at = { wall: 0, thread: 0 };
    let lastEnd: number | undefined;
    const gaps: number[] = [];
    // the clocks are read in an order that puts their own cost inside the tool's window
    bus.on('tool.started', () => {
      const thread = threadMsNow();
      if (lastEnd !== undefined) gaps.push(thread - lastEnd);
      at = { wall: performance.now(), thread };
    });
    bus.on('tool.finished', () => {
      tool.wallMs += performance.now() - at.wall;
      lastEnd = threadMsNow();
      tool.threadMs += lastEnd - at.thread;
    });
    let providerMs = 0;
    bus.on('provider.call', (e) => {
      providerMs += e.durationMs;
    });
    const prof = process.env.BENCH_PROF ? await startProfile() : undefined;
    const thread0 = threadMsNow();
    const cpu0 = cpuMsNow();
    const t0 = performance.now();
    const result = await agent.run(sessionId, 'What does small.ts export? Look at it many times.');
    const wallMs = performance.now() - t0;
    const cpuMs = cpuMsNow() - cpu0;
    const threadMs = threadMsNow() - thread0;
    if (prof) await prof();
    if (result.reason !== 'end_turn') throw new Error(`session ended with ${result.reason}: ${result.error}`);
    // the canned provider answers from memory: the fake sees nothing
    const after = canned ? { ...before, answered: before.answered + steps + 1 } : await fake.stats();
    if (after.rejected.length > before.rejected.length)
      throw new Error(`fake provider rejected a request: ${after.rejected.at(-1)}`);
    return {
      wallMs,
      threadMs,
      cpuMs,
      tool,
      storeMs: storeMs(),
      providerMs,
      gaps,
      lastRequestChars: after.lastBodyChars,
      calls: after.answered - before.answered,
    };
  } finally {
    await agent.idle();
    shell.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `BENCH_PROF=<dir>`: a CPU profile (50 µs samples) of each session's `agent.run` is written to
 * `<dir>/<ms>.cpuprofile` (the warm-up session's too). Sampling interrupts system calls, so the
 * profile overstates socket writes and SQLite's; the CPU figures of a run without it are the ones to quote.
 */
async function startProfile(): Promise<() => Promise<void>> {
  const { Session } = await import('node:inspector/promises');
  const s = new Session();
  s.connect();
  await s.post('Profiler.enable');
  await s.post('Profiler.setSamplingInterval', { interval: 50 });
  await s.post('Profiler.start');
  return async () => {
    const { profile } = await s.post('Profiler.stop');
    writeFileSync(`${process.env.BENCH_PROF}/${Date.now()}.cpuprofile`, JSON.stringify(profile));
    s.disconnect();
  };
}

/**
 * A baseline measured in the same run: the SDK alone over the same exchanges. Each request body a
 * session sent (as the fake received it) is sent again, in order, through the Anthropic client the
 * provider builds (its options: node-fetch.ts, no OpenTelemetry spans) with `messages.create` and the
 * body as bytes, and every event of the reply is iterated — no history, request build, store, agent,
 * events or tools. Returns our main thread's on-CPU ms per call: the part of the headline figure that is
 * the SDK and the transport, so the headline minus it is what our code adds.
 */
async function sdkAlone(fake: ChildFake, bodies: string[]): Promise<number> {
  const model = catalogModel('anthropic/claude-haiku-4-5')!;
  await fake.push(scriptOf(bodies.length - 1, '/tmp/replay.ts'));
  const provider = createProvider(model, {
    providers: {},
    env: { ANTHROPIC_API_KEY: 'sk-ant-bench', ANTHROPIC_BASE_URL: fake.url },
  });
  // the provider's own client, built as it builds it (a bench may reach in; the app never does)
  const client = await (provider as unknown as { sdk(): Promise<Anthropic> }).sdk();
  const requests = bodies.map((text) => {
    const { model: id, max_tokens } = JSON.parse(text) as { model: string; max_tokens: number };
    return { head: { model: id, max_tokens, messages: [], stream: true as const }, body: Buffer.from(text) };
  });
  let total = 0;
  for (const { head, body } of requests) {
    const t = threadMsNow();
    const stream = await client.messages.create(head, { body, headers: { 'content-type': 'application/json' } });
    for await (const event of stream) void event;
    total += threadMsNow() - t;
  }
  return total / requests.length;
}

/** Runs one session against `fake` and returns the request bodies it sent, in order (bench/provider-thread.ts). */
export async function sessionBodies(fake: ChildFake): Promise<string[]> {
  await fake.bodies();
  await oneSession(fake, STEPS);
  return fake.bodies();
}

/** Wraps the store methods the loop calls with timers; returns a reader of the total. */
function timeStoreCalls(db: Database): () => number {
  let total = 0;
  let depth = 0;
  const wrap = <T extends object>(obj: T, names: string[]) => {
    for (const name of names) {
      const o = obj as Record<string, (...args: unknown[]) => unknown>;
      if (typeof o[name] !== 'function') continue;
      const fn = o[name].bind(obj);
      o[name] = (...args: unknown[]) => {
        // on-CPU time of the main thread: two reads of the clock (~10 µs) per outermost call are counted in
        const t = depth === 0 ? threadMsNow() : 0;
        depth++;
        try {
          return fn(...args);
        } finally {
          // a call inside a batch is counted with the batch
          if (--depth === 0) total += threadMsNow() - t;
        }
      };
    }
  };
  wrap(db.messages, ['create', 'list', 'updateStreaming', 'finish', 'update', 'batch']);
  wrap(db.sessions, ['get', 'addUsage']);
  wrap(db.toolCalls, ['record']);
  return () => total;
}

/**
 * `canned`: the provider answers from memory ({@link cannedProvider}): no request, SDK or HTTP, so the
 * figure is the loop's own share of a call. Off by default (and in `npm run bench`).
 */
export async function benchAgentLoop(opts: {
  sessions: number;
  bigProject?: string;
  canned?: boolean;
}): Promise<Row[]> {
  log(
    `agent loop: a warm-up session, then ${opts.sessions} × ${STEPS}-step sessions${opts.bigProject ? ' of each variant, alternating' : ''}${opts.canned ? ', canned provider' : ''}`,
  );
  const fake = await startChildFake();
  try {
    await oneSession(fake, STEPS, { canned: opts.canned }); // JIT warm-up: the first session in a process is ~2× slower
    const runs: SessionTimes[] = [];
    const timed: SessionTimes[] = [];
    const memory: SessionTimes[] = [];
    const big: SessionTimes[] = [];
    const sdk: number[] = [];
    if (!opts.canned) await fake.bodies(); // drops the warm-up's
    for (let i = 0; i < opts.sessions; i++) {
      runs.push(await oneSession(fake, STEPS, { canned: opts.canned }));
      // the same exchanges again through the SDK alone, right after (the baseline of this run)
      if (!opts.canned) sdk.push(await sdkAlone(fake, await fake.bodies()));
      // alternating with the headline's sessions: the same session with the store calls timed
      timed.push(await oneSession(fake, STEPS, { canned: opts.canned, timeStore: true }));
      if (!opts.canned) await fake.bodies(); // not replayed
      // and with no storage at all: what the loop costs without SQLite
      memory.push(await oneSession(fake, STEPS, { canned: opts.canned, memory: true }));
      if (!opts.canned) await fake.bodies();
      // BENCH_EACH=1: each session's figure (the JIT is still warming up over the first few)
      if (process.env.BENCH_EACH) {
        const [r, t] = [runs.at(-1)!, timed.at(-1)!];
        const perCall = (s: SessionTimes) => loopMsPerCall(s).toFixed(2);
        log(
          `session ${i}: ${perCall(r)} ms/call; SDK alone ${sdk.at(-1)?.toFixed(2) ?? '-'}; timed: store ${(t.storeMs / t.calls).toFixed(2)} of ${perCall(t)}; store in memory ${perCall(memory.at(-1)!)}`,
        );
      }
      if (opts.bigProject) {
        big.push(await oneSession(fake, STEPS, { bigProject: opts.bigProject }));
        await fake.bodies();
      }
    }
    return rowsOf(runs, timed, memory, big, sdk);
  } finally {
    fake.close();
  }
}

function rowsOf(
  runs: SessionTimes[],
  timed: SessionTimes[],
  memory: SessionTimes[],
  big: SessionTimes[],
  sdk: number[],
): Row[] {
  const m = (f: (r: SessionTimes) => number) => median(runs.map(f));
  const mt = (f: (r: SessionTimes) => number) => median(timed.map(f));
  const per = (r: SessionTimes, v: number) => v / r.calls;
  const busyEach = runs.map(loopMsPerCall);
  const busy = median(busyEach);
  const busyInMemory = median(memory.map(loopMsPerCall));
  const early = median(runs.flatMap((r) => r.gaps.slice(0, 10)));
  const late = median(runs.flatMap((r) => r.gaps.slice(-10)));
  const S = 'agent loop';
  return [
    {
      section: S,
      name: `${STEPS}-step session, wall`,
      value: ms(m((r) => r.wallMs)),
      ratio: `${runs[0]!.calls} provider calls`,
      note: `median of ${runs.length} sessions after a warm-up one, each a fresh SQLite db; agent.run start → end; fake provider in a child process`,
    },
    {
      section: S,
      name: 'tool time per step',
      value: ms(m((r) => r.tool.wallMs / STEPS)),
      ratio: `CPU ${ms(m((r) => r.tool.threadMs / STEPS))}`,
      note: 'view of a 4-line file, tool.started → tool.finished (wall; CPU = main thread on CPU)',
    },
    {
      section: S,
      name: 'loop overhead per provider call',
      value: `${ms(busy)} (min ${ms(Math.min(...busyEach))}, n=${runs.length})`,
      ratio: `steps 1-10: ${ms(early)}, 41-50: ${ms(late)}`,
      target: '≤ 2 ms',
      note: 'main thread on CPU over agent.run minus during tools, ÷ calls: request build, SDK, HTTP + SSE parsing, store writes, events, GC; not the network wait, the fake (own process) or time waiting for a CPU. Split: from a tool end to the next tool start',
    },
    ...(sdk.length
      ? [
          {
            section: S,
            name: '  baseline: the SDK alone, same exchanges',
            value: ms(median(sdk)),
            ratio: `ours beyond it ${ms(busy - median(sdk))}`,
            note: "each session's request bodies sent again through the provider's Anthropic client (messages.create, body as bytes, node-fetch) and every event iterated, right after it: the SDK and the transport without any code of ours",
          },
        ]
      : []),
    {
      section: S,
      name: '  with the store in memory',
      value: ms(busyInMemory),
      ratio: `storage ${ms(busy - busyInMemory)} of the headline`,
      note: "the same figure in sessions alternating with the headline's whose store keeps messages in memory and writes nothing, and no tool-call log (bench/memory-store.ts): the loop without SQLite",
    },
    {
      section: S,
      name: '  process CPU per call, tools included',
      value: ms(m((r) => per(r, r.cpuMs))),
      note: 'user + system time of all threads over agent.run (adds the tools, GC helpers, JIT compiler threads, the libuv pool) ÷ calls (getrusage, ~2 µs a read)',
    },
    {
      section: S,
      name: '  wall per call',
      value: ms(m((r) => per(r, r.wallMs - r.tool.wallMs))),
      ratio: `provider.call ${ms(m((r) => per(r, r.providerMs)))}`,
      note: '(wall − tool wall) ÷ calls: adds the wait for the fake (its CPU in the other process, the loopback) and for a CPU',
    },
    {
      section: S,
      name: '  of which store calls',
      value: ms(mt((r) => per(r, r.storeMs))),
      ratio: `${((100 * mt((r) => r.storeMs)) / mt((r) => r.threadMs - r.tool.threadMs)).toFixed(0)}% of ${ms(mt(loopMsPerCall))}`,
      note: 'main-thread CPU in messages.create/list/update/updateStreaming/finish/batch + sessions.get/addUsage + toolCalls.record (SQLite + JSON; nested calls counted once), per call, in sessions alternating with the headline\'s with these calls timed (the timing\'s own clock readings, ~0.1 ms a call, are in the "of" figure, not in the headline)',
    },
    {
      section: S,
      name: 'last request body',
      value: `${(runs[0]!.lastRequestChars / 1024).toFixed(0)} KB`,
      note: `JSON the fake received on the final call (system + tools + ${2 * STEPS + 1} history messages)`,
    },
    ...(big.length
      ? [
          {
            section: S,
            name: 'big project: wall per step',
            value: ms(median(big.map((r) => r.wallMs / STEPS))),
            ratio: `${ratio(
              median(big.map((r) => r.wallMs)),
              m((r) => r.wallMs),
            )} small project`,
            note: "same session with the app's promptEnvironment: projectTree() of the search tree, once per run",
          },
          {
            section: S,
            name: 'big project: loop overhead per call',
            value: ms(median(big.map(loopMsPerCall))),
            ratio: `tool ${ms(median(big.map((r) => r.tool.wallMs / STEPS)))}/step`,
            note: `main-thread CPU, as above; last request body ${(big[0]!.lastRequestChars / 1024).toFixed(0)} KB`,
          },
        ]
      : []),
  ];
}

/**
 * `tsx bench/agent-loop.ts [sessions] [canned]`: this benchmark alone, without the search tree or a build;
 * `canned` swaps in the in-memory provider (the loop's own share).
 */
if (import.meta.url === `file://${process.argv[1]}`) {
  const { printTable } = await import('./lib.js');
  printTable(await benchAgentLoop({ sessions: Number(process.argv[2] ?? 3), canned: process.argv[3] === 'canned' }));
}
