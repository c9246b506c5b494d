/**
 * Starts bench/fake-provider-child.ts (the loopback fake provider in a process of its own) and talks to
 * it: the URL to point the Anthropic SDK at, turns appended to its script, and what it received.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { ChildStats, ChildTurn } from './fake-provider-child.js';

export type { ChildStats, ChildTurn };

export interface ChildFake {
  /** for `ANTHROPIC_BASE_URL` */
  url: string;
  /** appends turns to the script; resolves once the child has them */
  push(turns: ChildTurn[]): Promise<void>;
  /** counts since the child started (see {@link ChildStats}) */
  stats(): Promise<ChildStats>;
  /** the raw bodies of the completion requests answered since the last call, in order */
  bodies(): Promise<string[]>;
  /** closes the child's stdin: the fake closes and the child exits */
  close(): void;
}

/** Spawns the child with `turns` as its first script; resolves when it listens. */
export async function startChildFake(turns: ChildTurn[] = []): Promise<ChildFake> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'fake-provider-child.ts')], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const waiting: ((line: string) => void)[] = [];
  const lines = createInterface({ input: child.stdout });
  lines.on('line', (line) => waiting.shift()?.(line));
  const next = (prefix: string) =>
    new Promise<string>((resolve, reject) => {
      const onExit = (code: number | null) =>
        reject(new Error(`fake provider child exited ${code} while a "${prefix}" answer was awaited`));
      child.once('exit', onExit);
      waiting.push((line) => {
        child.off('exit', onExit);
        if (!line.startsWith(`${prefix} `))
          reject(new Error(`fake provider child answered "${line.slice(0, 200)}", expected "${prefix} …"`));
        else resolve(line.slice(prefix.length + 1));
      });
    });
  const send = (value: unknown) => child.stdin.write(`${JSON.stringify(value)}\n`);
  const url = next('url');
  send({ turns });
  return {
    url: await url,
    async push(more) {
      const answer = next('pushed');
      send({ push: more });
      await answer;
    },
    async stats() {
      const answer = next('stats');
      send({ stats: true });
      return JSON.parse(await answer) as ChildStats;
    },
    async bodies() {
      const answer = next('bodies');
      send({ bodies: true });
      return JSON.parse(await answer) as string[];
    },
    close: () => child.stdin.end(),
  };
}
