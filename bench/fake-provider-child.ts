/**
 * The loopback fake provider in a process of its own, for benchmarks that count the bytes the measured
 * process writes (`/proc/self/io`): in the same process, the fake's socket writes would be counted too.
 * Reads one JSON line on stdin, `{ turns: FakeTurn[] }` with text given as `{ repeat, times }` chunks
 * (see {@link ChildTurn}), prints `url <anthropicBaseURL>` and serves until stdin closes.
 */
import { createInterface } from 'node:readline';
import { startFakeProvider, type FakeTurn } from '../test/support/fake-provider.js';

/** A turn whose text is `times` events of `chunk` each (so the script line stays small). */
export interface ChildTurn extends Omit<FakeTurn, 'text'> {
  text?: { chunk: string; times: number };
}

const lines = createInterface({ input: process.stdin });
const first = await new Promise<string>((resolve) => lines.once('line', resolve));
const { turns } = JSON.parse(first) as { turns: ChildTurn[] };
const fake = await startFakeProvider(
  turns.map(({ text, ...rest }) => ({ ...rest, ...(text ? { text: Array.from({ length: text.times }, () => text.chunk) } : {}) })),
);
process.stdout.write(`url ${fake.anthropicBaseURL}\n`);
lines.on('close', () => void fake.close().then(() => process.exit(0)));
