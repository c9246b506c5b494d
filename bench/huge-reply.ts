/**
 * A huge streamed reply: 40 MiB of text in 64 KiB events from the loopback fake provider
 * (Anthropic SSE, in a child process) through the real SDK and the agent into a real SQLite file.
 * Measured: agent.run wall time; bytes this process wrote (`/proc/self/io` wchar: every write(2), so
 * the WAL, the database and its checkpoints, plus the request bodies sent to the fake — a few KB);
 * the database and WAL sizes afterwards; and the stored reply's length (cut to 4 MiB + a note).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { Agent } from '../src/agent/agent.js';
import type { AgentEvents } from '../src/agent/events.js';
import { openDatabase } from '../src/db/index.js';
import { EventBus } from '../src/events/bus.js';
import { messageText } from '../src/message.js';
import { PermissionService } from '../src/permission/service.js';
import { catalogModel, computeCost, createProvider } from '../src/provider/index.js';
import { createShell } from '../src/tools/shell.js';
import { FileTimes } from '../src/tools/file-times.js';
import { builtinTools } from '../src/tools/index.js';
import type { ChildTurn } from './fake-provider-child.js';
import { log, median, ms, type Row } from './lib.js';

const EVENT_CHARS = 64 * 1024;
const EVENTS = 640; // 40 MiB
const MiB = 1024 * 1024;

/** 64 KiB of prose-like ASCII: 100-character lines of words. */
function chunkText(): string {
  const line = 'the quick brown fox jumps over the lazy dog and keeps running through the field until it is dark \n';
  return line.repeat(Math.ceil(EVENT_CHARS / line.length)).slice(0, EVENT_CHARS);
}

/** Bytes this process has passed to write(2) so far (Linux); NaN elsewhere. */
function writtenBytes(): number {
  try {
    return Number(/^wchar: (\d+)$/m.exec(readFileSync('/proc/self/io', 'utf8'))?.[1] ?? NaN);
  } catch {
    return NaN;
  }
}

async function startChildFake(turns: ChildTurn[]): Promise<{ url: string; close: () => void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'fake-provider-child.ts')], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  child.stdin.write(`${JSON.stringify({ turns })}\n`);
  const lines = createInterface({ input: child.stdout });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`fake provider child exited ${code}`)));
    lines.on('line', (line) => line.startsWith('url ') && resolve(line.slice(4)));
  });
  return { url, close: () => child.stdin.end() };
}

interface Run {
  wallMs: number;
  /** time in messages.updateStreaming + finish (SQLite writes, the cut, the checkpoint) */
  storeMs: number;
  writtenBytes: number;
  dbBytes: number;
  walBytes: number;
  storedChars: number;
  receivedChars: number;
}

async function oneRun(): Promise<Run> {
  const chunk = chunkText();
  const fake = await startChildFake([{ text: { chunk, times: EVENTS } }]);
  const dir = mkdtempSync(join(tmpdir(), 'opencode-bench-huge-'));
  const db = openDatabase(join(dir, '.opencode'));
  try {
    const model = catalogModel('anthropic/claude-haiku-4-5')!;
    const provider = createProvider(
      model,
      { providers: {}, env: { ANTHROPIC_API_KEY: 'sk-ant-bench', ANTHROPIC_BASE_URL: fake.url } },
      { baseDelayMs: 1, maxRetries: 0 },
    );
    const shell = createShell({ cwd: dir });
    const agent = new Agent({
      kind: 'coder',
      provider,
      tools: builtinTools(),
      store: db,
      permission: new PermissionService(dir),
      bus: new EventBus<AgentEvents>(),
      toolServices: { fileTimes: new FileTimes(), fileHistory: db.files, shellFor: () => shell },
      promptEnvironment: () => ({ cwd: dir, projectTree: `- ${dir}/`, contextPaths: [] }),
      maxTokens: 64_000,
      computeCost,
    });
    const sessionId = db.sessions.create({ title: 'huge' }).id;
    let storeMs = 0;
    for (const name of ['updateStreaming', 'finish'] as const) {
      const fn = db.messages[name].bind(db.messages) as (m: never) => unknown;
      (db.messages as unknown as Record<string, unknown>)[name] = (m: never) => {
        const t = performance.now();
        try {
          return fn(m);
        } finally {
          storeMs += performance.now() - t;
        }
      };
    }
    const before = writtenBytes();
    const t0 = performance.now();
    const result = await agent.run(sessionId, 'Write a very long answer.');
    const wallMs = performance.now() - t0;
    const written = writtenBytes() - before;
    shell.close();
    if (result.reason !== 'end_turn') throw new Error(`the run ended with ${result.reason}: ${result.error}`);
    const stored = db.messages.list(sessionId).at(-1)!;
    const size = (f: string) => (existsSync(f) ? statSync(f).size : 0);
    return {
      wallMs,
      storeMs,
      writtenBytes: written,
      dbBytes: size(db.path),
      walBytes: size(`${db.path}-wal`),
      storedChars: messageText(stored).length,
      receivedChars: EVENT_CHARS * EVENTS,
    };
  } finally {
    db.close();
    fake.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchHugeReply(opts: { runs: number }): Promise<Row[]> {
  log(`huge reply: ${opts.runs} × a 40 MiB reply in 64 KiB events through the agent into SQLite`);
  const runs: Run[] = [];
  for (let i = 0; i < opts.runs; i++) runs.push(await oneRun());
  const S = 'huge reply';
  const mb = (b: number) => `${(b / MiB).toFixed(1)} MiB`;
  const r = runs[0]!;
  return [
    {
      section: S,
      name: '40 MiB reply, 64 KiB events: stored in',
      value: `${ms(median(runs.map((x) => x.wallMs)))} (min ${ms(Math.min(...runs.map((x) => x.wallMs)))}, n=${runs.length})`,
      target: '≤ 5 s',
      note: 'agent.run start → end: fake (child process) → Anthropic SDK → agent → SQLite (chunked writes, finish, checkpoint)',
    },
    {
      section: S,
      name: '  of which store calls',
      value: ms(median(runs.map((x) => x.storeMs))),
      note: 'messages.updateStreaming + finish: chunk inserts, the final write of the cut reply, the WAL checkpoint',
    },
    {
      section: S,
      name: '  bytes written by the process',
      value: mb(median(runs.map((x) => x.writtenBytes))),
      ratio: `${(median(runs.map((x) => x.writtenBytes)) / r.receivedChars).toFixed(2)}× the reply`,
      target: '≤ 200 MB',
      note: '/proc/self/io wchar during agent.run: WAL + database + checkpoint writes (+ the request, a few KB)',
    },
    {
      section: S,
      name: '  database / WAL after',
      value: `${mb(r.dbBytes)} / ${mb(r.walBytes)}`,
      note: 'file sizes once the run ended (the WAL is checkpointed and truncated after a large finish)',
    },
    {
      section: S,
      name: '  stored reply',
      value: `${r.storedChars.toLocaleString('en-US')} chars`,
      ratio: `of ${r.receivedChars.toLocaleString('en-US')} received`,
      note: 'head and tail of 2 MiB each around a note of what was cut (db/part-cap.ts)',
    },
  ];
}
