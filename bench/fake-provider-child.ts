/**
 * The loopback fake provider in a process of its own, for benchmarks that measure the process under
 * test (its CPU, the bytes it writes via `/proc/self/io`, its memory): in the same process the fake's
 * work, socket writes and recorded request bodies would be counted as ours.
 *
 * Protocol (stdin/stdout, one JSON line each):
 * - first line `{ turns: ChildTurn[] }`, text given as `{ chunk, times }` (see {@link ChildTurn});
 *   the child prints `url <anthropicBaseURL>` once it listens;
 * - later lines: `{ "push": ChildTurn[] }` appends turns to the script (answer: `pushed <n remaining>`);
 *   `{ "stats": true }` answers `stats <JSON of ChildStats>`; `{ "bodies": true }` answers `bodies <JSON
 *   array>`: the raw bodies of the requests answered since the last `bodies` (for a replay);
 * - stdin closed: the fake closes and the child exits.
 * Use it through bench/fake-provider-client.ts.
 */
import { createInterface } from 'node:readline';
import { startFakeProvider, type FakeTurn } from '../test/support/fake-provider.js';

/** A turn whose text is `times` events of `chunk` each (so the script line stays small). */
export interface ChildTurn extends Omit<FakeTurn, 'text'> {
  text?: { chunk: string; times: number };
}

/** What the child reports on `{ "stats": true }`. */
export interface ChildStats {
  /** completion requests answered by a scripted turn, since the start */
  answered: number;
  /** the 400 messages of the requests the fake rejected (what the real API would reject), since the start */
  rejected: string[];
  /** bytes of the JSON body of the last answered request (its UTF-16 length as re-serialised) */
  lastBodyChars: number;
}

const expand = (turns: ChildTurn[]): FakeTurn[] =>
  turns.map(({ text, ...rest }) => ({
    ...rest,
    ...(text ? { text: Array.from({ length: text.times }, () => text.chunk) } : {}),
  }));

const lines = createInterface({ input: process.stdin });
const first = await new Promise<string>((resolve) => lines.once('line', resolve));
const { turns } = JSON.parse(first) as { turns: ChildTurn[] };
const fake = await startFakeProvider(expand(turns));
let lastBody: unknown;
let answered = 0;
let seen = 0;
let bodiesSeen = 0;
process.stdout.write(`url ${fake.anthropicBaseURL}\n`);
lines.on('line', (line) => {
  const command = JSON.parse(line) as { push?: ChildTurn[]; stats?: true; bodies?: true };
  if (command.push) {
    fake.push(...expand(command.push));
    process.stdout.write(`pushed ${fake.remaining()}\n`);
  }
  if (command.stats) {
    // keep only the last answered body: the recorded requests would grow the child's memory for nothing
    for (const r of fake.requests.slice(seen)) {
      if (r.turn !== undefined) {
        answered++;
        lastBody = r.body;
      }
    }
    seen = fake.requests.length;
    const stats: ChildStats = {
      answered,
      rejected: fake.requests.filter((r) => r.rejected).map((r) => r.rejected!),
      lastBodyChars: lastBody === undefined ? 0 : JSON.stringify(lastBody).length,
    };
    process.stdout.write(`stats ${JSON.stringify(stats)}\n`);
  }
  if (command.bodies) {
    const bodies = fake.requests
      .slice(bodiesSeen)
      .filter((r) => r.turn !== undefined)
      .map((r) => r.text);
    bodiesSeen = fake.requests.length;
    process.stdout.write(`bodies ${JSON.stringify(bodies)}\n`);
  }
});
lines.on('close', () => void fake.close().then(() => process.exit(0)));
