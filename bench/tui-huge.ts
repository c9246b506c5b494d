/**
 * The TUI with one huge line (`npm run bench -- --only tui`, part c): a session holding one 1 MiB
 * line in an assistant reply, a code block, a tool result and a user message: runTui → the first
 * frame, and page up/down key → frame; and a 40 MiB reply streaming in 64 KiB events: key → frame
 * meanwhile, finish → frame.
 */
import { performance } from 'node:perf_hooks';
import type { Message, MessagePart } from '../src/message.js';
import { log, ms, stats, type Row } from './lib.js';
import { MODEL, mount, pushStored, sleep, type Mounted } from './tui-harness.js';

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
    [
      {
        type: 'tool_call',
        id: call,
        name: 'bash',
        input: JSON.stringify({ command: 'cat big.txt', description: 'Show the file' }),
        finished: true,
      },
    ],
    [{ type: 'tool_result', toolCallId: call, name: 'bash', content: line, metadata: { exitCode: 0 }, isError: false }],
  ],
  'user message': (line) => [[{ type: 'text', text: line }]],
};

function hugeSession(kind: string, chars = HUGE_LINE_CHARS): (sessionId: string) => Message[] {
  return (sessionId) => {
    const t = Date.now();
    const messages: Message[] = [];
    const push = (role: Message['role'], parts: MessagePart[]) => pushStored(messages, sessionId, role, parts, t);
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
  rows.push({
    section,
    name: 'baseline: the same session with a 100-character line: open',
    value: stats(baseline),
    note: 'runTui → the first frame, modules already loaded: what opening costs without a huge item',
  });
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
    const message: Message = {
      id: 'msg_huge',
      sessionId,
      role: 'assistant',
      parts: [],
      model: MODEL.id,
      seq: 1,
      createdAt: now,
      updatedAt: now,
    };
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
    const finished: Message = {
      ...message,
      parts: [
        { type: 'text', text: `${stored} ${end}` },
        { type: 'finish', reason: 'end_turn', time: Date.now() },
      ],
      finishedAt: Date.now(),
    };
    const shownEnd = ui.stdout.nextWriteWith(end);
    const f0 = performance.now();
    bus.emit('message.updated', { message: finished });
    bus.emit('run.finished', {
      sessionId,
      reason: 'end_turn',
      message: finished,
      usage: { input: 10, output: 1, cacheRead: 0, cacheWrite: 0 },
      costUsd: 0,
    });
    const finishMs = (await Promise.race([shownEnd, sleep(30_000).then(() => NaN)])) - f0;
    const cpu = process.cpuUsage(cpu0);
    const wallMs = performance.now() - t0;
    const ok = keys.filter((k) => !Number.isNaN(k));
    return [
      {
        section,
        name: 'stream: wall / CPU',
        value: `${ms(wallMs)} / ${ms((cpu.user + cpu.system) / 1000)}`,
        note: '640 updates of +64 KiB, 5 ms apart (the events alone take ~3.5 s of wall), then the finish',
      },
      {
        section,
        name: 'key → frame while it streams',
        value: ok.length ? stats(ok) : 'none',
        ratio: `${ok.length} of ${keys.length} shown`,
        target: '≤ 50 ms',
        note: 'a letter typed every 64 updates → the frame showing it',
      },
      {
        section,
        name: 'finish → frame with the whole (cut) reply',
        value: ms(finishMs),
        note: 'the finished 4 MiB reply laid out once (markdown + wrap), its end on screen',
      },
    ];
  } finally {
    await ui.unmount();
  }
}
