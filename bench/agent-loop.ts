/**
 * Agent loop overhead: a scripted session of 50 tool steps (each a `view` of a small file) and a
 * final text turn, run in-process through the agent harness (real Anthropic SDK → loopback fake
 * provider, real SQLite file). Tool time is measured from the bus's `tool.started`/`tool.finished`
 * events and subtracted: what is left, per provider call, is the loop's own cost (request build +
 * SDK HTTP/SSE streaming + the in-process fake answering + SQLite writes + bookkeeping).
 *
 * The harness's prompt environment is a constant. A second variant uses the app's (src/app/app.ts):
 * `projectTree()` of a big project (the search tree), rebuilt on every provider call and every tool
 * call; there the tool time includes the walk done by `contextFor` (agent.ts toolContext), so its
 * line gives the wall time per step.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { PromptEnvironment } from '../src/agent/prompts.js';
import { DEFAULT_CONTEXT_PATHS } from '../src/config/schema.js';
import { projectTree } from '../src/tools/ls.js';
import { PROJECT_TREE_MAX_ENTRIES } from '../src/agent/prompts.js';
import { agentHarness } from '../test/support/agent-harness.js';
import type { FakeTurn } from '../test/support/fake-provider.js';
import { log, median, ms, ratio, type Row } from './lib.js';

const STEPS = 50;

interface SessionTimes {
  wallMs: number;
  toolMs: number;
  /** time in the message/session store calls (SQLite writes + JSON) */
  storeMs: number;
  /** loop time between one tool's end and the next tool's start, per step */
  gaps: number[];
  /** time inside provider calls (the bus's provider.call durationMs): SDK, HTTP, SSE, the fake answering */
  providerMs: number;
  /** bytes of the last request body (system prompt + tools + whole history) */
  lastRequestBytes: number;
  calls: number;
}

async function oneSession(steps: number, bigProject?: string): Promise<SessionTimes> {
  const dir = mkdtempSync(join(tmpdir(), 'opencode-bench-agent-'));
  const file = join(dir, 'small.ts');
  writeFileSync(file, 'export const answer = 42;\nexport function double(x: number) {\n  return x * 2;\n}\n');
  const turns: FakeTurn[] = Array.from({ length: steps }, (_, i) => ({
    text: i === 0 ? 'Let me look.' : undefined,
    toolCalls: [{ name: 'view', input: { file_path: file } }],
  }));
  turns.push({ text: 'The file exports answer and double.' });

  // as app.ts builds it, but with the tree of the big project (the tools still work in `dir`)
  const appEnvironment = (): PromptEnvironment => ({ cwd: dir, projectTree: projectTree(bigProject!, PROJECT_TREE_MAX_ENTRIES), contextPaths: DEFAULT_CONTEXT_PATHS });
  const h = await agentHarness(turns, { dir, agent: bigProject ? { promptEnvironment: appEnvironment } : {} });
  try {
    const storeMs = timeStoreCalls(h.db);
    let toolMs = 0;
    let started = 0;
    let lastEnd = 0;
    const gaps: number[] = [];
    h.bus.on('tool.started', () => {
      started = performance.now();
      if (lastEnd) gaps.push(started - lastEnd);
    });
    let providerMs = 0;
    h.bus.on('provider.call', (e) => {
      providerMs += e.durationMs;
    });
    h.bus.on('tool.finished', () => {
      lastEnd = performance.now();
      toolMs += lastEnd - started;
    });
    const t0 = performance.now();
    const result = await h.agent.run(h.sessionId, 'What does small.ts export? Look at it many times.');
    const wallMs = performance.now() - t0;
    if (result.reason !== 'end_turn') throw new Error(`session ended with ${result.reason}: ${result.error}`);
    const rejected = h.fake.requests.filter((r) => r.rejected);
    if (rejected.length) throw new Error(`fake provider rejected a request: ${rejected[0]!.rejected}`);
    return {
      wallMs,
      toolMs,
      storeMs: storeMs(),
      providerMs,
      gaps,
      lastRequestBytes: JSON.stringify(h.fake.answered.at(-1)).length,
      calls: h.fake.answered.length,
    };
  } finally {
    await h.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Wraps the store methods the loop calls with timers; returns a reader of the total. */
function timeStoreCalls(db: Awaited<ReturnType<typeof agentHarness>>['db']): () => number {
  let total = 0;
  const wrap = <T extends object>(obj: T, names: string[]) => {
    for (const name of names) {
      const o = obj as Record<string, (...args: unknown[]) => unknown>;
      const fn = o[name]!.bind(obj);
      o[name] = (...args: unknown[]) => {
        const t = performance.now();
        try {
          return fn(...args);
        } finally {
          total += performance.now() - t;
        }
      };
    }
  };
  wrap(db.messages, ['create', 'list', 'updateStreaming', 'finish', 'update']);
  wrap(db.sessions, ['get', 'addUsage']);
  return () => total;
}

export async function benchAgentLoop(opts: { sessions: number; bigProject?: string }): Promise<Row[]> {
  log(`agent loop: a warm-up session, then ${opts.sessions} × ${STEPS}-step sessions${opts.bigProject ? ' of each variant, alternating' : ''}`);
  await oneSession(STEPS); // JIT warm-up: the first session in a process is ~2× slower
  const runs: SessionTimes[] = [];
  const big: SessionTimes[] = [];
  for (let i = 0; i < opts.sessions; i++) {
    runs.push(await oneSession(STEPS));
    if (opts.bigProject) big.push(await oneSession(STEPS, opts.bigProject));
  }
  const per = (r: SessionTimes, v: number) => v / r.calls;
  const overhead = median(runs.map((r) => per(r, r.wallMs - r.toolMs)));
  const early = median(runs.flatMap((r) => r.gaps.slice(0, 10)));
  const late = median(runs.flatMap((r) => r.gaps.slice(-10)));
  const S = 'agent loop';
  return [
    {
      section: S,
      name: `${STEPS}-step session, wall`,
      value: ms(median(runs.map((r) => r.wallMs))),
      ratio: `${runs[0]!.calls} provider calls`,
      note: `median of ${runs.length} sessions, each a fresh SQLite db; agent.run start → end`,
    },
    {
      section: S,
      name: 'tool time per step',
      value: ms(median(runs.map((r) => r.toolMs / STEPS))),
      note: 'view of a 4-line file, tool.started → tool.finished',
    },
    {
      section: S,
      name: 'loop overhead per provider call',
      value: ms(overhead),
      ratio: `steps 1-10: ${ms(early)}, 41-50: ${ms(late)}`,
      note: '(wall − tool time) ÷ provider calls; the split is the gap from a tool end to the next tool start',
    },
    {
      section: S,
      name: '  of which inside the provider call',
      value: ms(median(runs.map((r) => per(r, r.providerMs)))),
      note: 'provider.call durationMs: request build, Anthropic SDK, HTTP + SSE, and the in-process fake answering and checking the request',
    },
    {
      section: S,
      name: '  the loop\'s own (outside the provider call)',
      value: ms(median(runs.map((r) => per(r, r.wallMs - r.toolMs - r.providerMs)))),
      note: '(wall − tool − provider) ÷ calls: message create/finish, tool batch bookkeeping, events; store writes during streaming are inside the provider call',
    },
    {
      section: S,
      name: '  of which store calls',
      value: ms(median(runs.map((r) => per(r, r.storeMs)))),
      ratio: `${((100 * median(runs.map((r) => r.storeMs))) / median(runs.map((r) => r.wallMs - r.toolMs))).toFixed(0)}% of overhead`,
      note: 'messages.create/list/updateStreaming/finish + sessions.get/addUsage (SQLite + JSON), per call',
    },
    {
      section: S,
      name: 'last request body',
      value: `${(runs[0]!.lastRequestBytes / 1024).toFixed(0)} KB`,
      note: 'JSON the fake received on the final call (system + tools + 101 history messages)',
    },
    ...(big.length
      ? [
          {
            section: S,
            name: 'big project: wall per step',
            value: ms(median(big.map((r) => r.wallMs / STEPS))),
            ratio: `${ratio(median(big.map((r) => r.wallMs)), median(runs.map((r) => r.wallMs)))} small project`,
            note: 'same session with the app\'s promptEnvironment: projectTree() of the search tree, once per run',
          },
          {
            section: S,
            name: 'big project: loop overhead per call',
            value: ms(median(big.map((r) => per(r, r.wallMs - r.toolMs)))),
            ratio: `tool ${ms(median(big.map((r) => r.toolMs / STEPS)))}/step`,
            note: `tool time includes contextFor's walk; last request body ${(big[0]!.lastRequestBytes / 1024).toFixed(0)} KB`,
          },
        ]
      : []),
  ];
}
