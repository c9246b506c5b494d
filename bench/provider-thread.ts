/**
 * What the main thread would pay per provider call if the exchange ran in a worker thread (not
 * in `npm run bench`). The request bodies of one agent-loop session (bench/agent-loop.ts's script, taken
 * from the fake) are sent, interleaved by session:
 * - **on the main thread**: through the provider's own Anthropic client (messages.create, the body as
 *   bytes, node-fetch), every event iterated — the headline's SDK-alone baseline;
 * - **in a worker**: the body bytes handed (transferred) to a worker that makes the same call with the
 *   same client (bench/provider-thread-worker.mjs) and posts the SDK's events back in batches; the main
 *   thread only posts and iterates what comes back.
 * Prints our main thread's on-CPU ms per call of each (medians of the sessions). Nothing of the app runs
 * in a worker today: this measures the lever, not the product. `tsx bench/provider-thread.ts [sessions]`.
 */
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import type Anthropic from '@anthropic-ai/sdk';
import { catalogModel, createProvider } from '../src/provider/index.js';
import { mainThreadCpuClock, sessionBodies } from './agent-loop.js';
import { startChildFake, type ChildTurn } from './fake-provider-client.js';
import { median } from './lib.js';

const clock = mainThreadCpuClock() ?? (() => performance.eventLoopUtilization().active);
const sessions = Number(process.argv[2] ?? 6);

const fake = await startChildFake();
// one agent-loop session's request bodies, as the fake received them
const bodies = await sessionBodies(fake);
const heads = bodies.map((text) => {
  const { model, max_tokens } = JSON.parse(text) as { model: string; max_tokens: number };
  return { model, max_tokens, messages: [], stream: true as const };
});
const script = (): ChildTurn[] => [
  ...Array.from({ length: bodies.length - 1 }, () => ({
    toolCalls: [{ name: 'view', input: { file_path: '/tmp/replay.ts' } }],
  })),
  { text: { chunk: 'The file exports answer and double. ', times: 8 } },
];

const provider = createProvider(catalogModel('anthropic/claude-haiku-4-5')!, {
  providers: {},
  env: { ANTHROPIC_API_KEY: 'sk-ant-bench', ANTHROPIC_BASE_URL: fake.url },
});
const client = await (provider as unknown as { sdk(): Promise<Anthropic> }).sdk();
const worker = new Worker(new URL('./provider-thread-worker.mjs', import.meta.url), { workerData: { url: fake.url } });
await new Promise((resolve) => worker.once('message', resolve));

async function onMain(): Promise<number> {
  await fake.push(script());
  let total = 0;
  for (let i = 0; i < bodies.length; i++) {
    const body = Buffer.from(bodies[i]!);
    const t = clock();
    const stream = await client.messages.create(heads[i]!, { body, headers: { 'content-type': 'application/json' } });
    for await (const event of stream) void event;
    total += clock() - t;
  }
  return total / bodies.length;
}

async function inWorker(): Promise<number> {
  await fake.push(script());
  let total = 0;
  for (let i = 0; i < bodies.length; i++) {
    const body = Buffer.from(bodies[i]!);
    const t = clock();
    // a copy is transferred: the encoder keeps its own bytes
    const copy = new Uint8Array(body);
    await new Promise<void>((resolve) => {
      const on = (m: { events?: unknown[]; done?: true }) => {
        for (const event of m.events ?? []) void event;
        if (!m.done) return;
        worker.off('message', on);
        resolve();
      };
      worker.on('message', on);
      worker.postMessage({ head: heads[i], body: copy }, [copy.buffer]);
    });
    total += clock() - t;
  }
  return total / bodies.length;
}

const main: number[] = [];
const threaded: number[] = [];
await onMain(); // warm-up of both
await inWorker();
for (let i = 0; i < sessions; i++) {
  main.push(await onMain());
  threaded.push(await inWorker());
}
const f = (xs: number[]) => `${median(xs).toFixed(2)} ms (${xs.map((x) => x.toFixed(2)).join(' ')})`;
console.log(`main thread's on-CPU time per call, ${bodies.length} calls a session, ${sessions} sessions:`);
console.log(`  SDK exchange on the main thread: ${f(main)}`);
console.log(`  SDK exchange in a worker:        ${f(threaded)}`);
await worker.terminate();
fake.close();
