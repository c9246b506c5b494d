/**
 * The TUI (`npm run bench -- --only tui`):
 * a. start-up as a person meets it, in a real pty through bin/opencode's shebang: skeleton, status
 *    bar, full UI usable (a key echoed), the first keys' latency, RSS ({@link benchTuiStartup}).
 * b. in this process, without a terminal (`tui-harness.ts`): the real TUI (`runTui`) on a fake TTY
 *    stdout (120×40, write times recorded) and stdin, over in-memory {@link ChatServices} holding a
 *    session of N messages (user prompts; assistant markdown with code blocks; bash/view/edit calls
 *    and their results):
 *    (i) key press → a stdout write showing the typed text, 50 presses, N=10 vs N=2000;
 *    (ii) CPU (user+system) while 5,000 tokens stream into a new assistant message through the bus
 *    (`message.updated` with the text so far, a token every 2 ms), N=10 vs N=2000;
 *    (iii) peak RSS of this process during the N=2000 stream.
 * c. (`tui-huge.ts`) a session holding one 1 MiB line in an assistant reply, a code block, a tool result
 *    and a user message: runTui → the first frame, and page up/down key → frame; and a 40 MiB reply
 *    streaming in 64 KiB events: key → frame meanwhile, finish → frame.
 */
import { performance } from 'node:perf_hooks';
import type { AgentEvents } from '../src/agent/events.js';
import { EventBus } from '../src/events/bus.js';
import type { Message } from '../src/message.js';
import type { ChatServices } from '../src/tui/state/services.js';
import { log, median, ms, ratio, stats, type Row } from './lib.js';
import { MARKDOWN, MODEL, mount, sleep, type Mounted } from './tui-harness.js';
import { hugeLineRows, hugeStreamRows } from './tui-huge.js';
import { benchTuiStartup } from './tui-startup.js';

/** All the TUI's rows: start-up in a pty (a), in process (b), the huge line and stream (c); `runs` start-ups, `presses` keys, `tokens` streamed. */
export async function benchTui(opts: { runs: number; presses: number; tokens: number }): Promise<Row[]> {
  const rows = await benchTuiStartup(opts.runs);
  rows.push(...(await inProcess(opts.presses, opts.tokens)));
  rows.push(...(await hugeLineRows(Math.min(20, opts.presses))));
  rows.push(...(await hugeStreamRows()));
  return rows;
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
  const message: Message = {
    id: 'msg_stream',
    sessionId,
    role: 'assistant',
    parts: [{ type: 'text', text: '' }],
    model: MODEL.id,
    seq: 1e6,
    createdAt: now,
    updatedAt: now,
  };
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
  const finished: Message = {
    ...message,
    parts: [
      { type: 'text', text },
      { type: 'finish', reason: 'end_turn', time: Date.now() },
    ],
    finishedAt: Date.now(),
  };
  bus.emit('message.updated', { message: finished });
  bus.emit('run.finished', {
    sessionId,
    reason: 'end_turn',
    message: finished,
    usage: { input: 10, output: tokens, cacheRead: 0, cacheWrite: 0 },
    costUsd: 0,
  });
  await sleep(100); // the last frame
  const cpu = process.cpuUsage(cpu0);
  const wallMs = performance.now() - t0;
  clearInterval(sampler);
  return { cpuMs: (cpu.user + cpu.system) / 1000, wallMs, peakRssMb: peakRss / 2 ** 20 };
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
      const stream = {
        ...(await streamTokens(ui.services.bus, ui.session.id, tokens)),
        frames: ui.stdout.writes - writesBefore,
      };
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
    {
      section,
      name: 'key → frame, N=10',
      value: stats(small.keys),
      ratio: '1.00×',
      note: `one letter typed into the editor → the stdout write showing it; ${presses} presses, 20 ms apart`,
    },
    {
      section,
      name: 'key → frame, N=2000',
      value: stats(big.keys),
      ratio: ratio(median(big.keys), median(small.keys)),
      note: 'same, with a 2,000-message session open (markdown, code blocks, tool calls)',
    },
    {
      section,
      name: `stream ${tokens} tokens: CPU, no UI`,
      value: ms(alone.cpuMs),
      note: `the event loop alone (bus without subscribers): ${ms(alone.wallMs)} wall`,
    },
    {
      section,
      name: `stream ${tokens} tokens: CPU, N=10`,
      value: ms(small.stream.cpuMs),
      ratio: '1.00×',
      note: `process.cpuUsage user+system, a token every 2 ms via message.updated; ${streamNote(small)}`,
    },
    {
      section,
      name: `stream ${tokens} tokens: CPU, N=2000`,
      value: ms(big.stream.cpuMs),
      ratio: ratio(big.stream.cpuMs, small.stream.cpuMs),
      note: streamNote(big),
    },
    {
      section,
      name: 'peak RSS while streaming, N=2000',
      value: `${big.stream.peakRssMb.toFixed(0)} MB`,
      ratio: `N=10: ${small.stream.peakRssMb.toFixed(0)} MB`,
      note: `this whole bench process (tsx included), sampled every 25 ms; ${big.rssBeforeMb.toFixed(0)} MB before mounting`,
    },
  ];
}
