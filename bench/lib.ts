/**
 * Shared helpers for the benchmarks: timing, medians, spawning a command and the output table.
 * Every figure is a median over repeated runs in the same process, so ratios compare like with like.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

export function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** Runs `fn` `warmup` times untimed, then `runs` times; returns each run's milliseconds. */
export async function timeRuns(runs: number, fn: () => Promise<unknown>, warmup = 1): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  return times;
}

export interface SpawnResult {
  ms: number;
  /** spawn → first stdout bytes (NaN when there were none) */
  firstStdoutMs: number;
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Spawns `cmd args` (stdin closed, output piped and collected) and times it from spawn to exit. */
export function spawnTimed(
  cmd: string,
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<SpawnResult> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(cmd, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let firstStdoutMs = NaN;
    child.stdout.on('data', (c: Buffer) => {
      if (out.length === 0) firstStdoutMs = performance.now() - t0;
      out.push(c);
    });
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({
        ms: performance.now() - t0,
        firstStdoutMs,
        code,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      }),
    );
  });
}

/** Spawns and throws unless the exit code is one of `ok` (default 0). */
export async function spawnChecked(
  cmd: string,
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; ok?: number[] } = {},
): Promise<SpawnResult> {
  const r = await spawnTimed(cmd, args, options);
  if (!(options.ok ?? [0]).includes(r.code ?? -1)) {
    throw new Error(`${cmd} ${args.join(' ')} exited ${r.code}: ${r.stderr.trim().slice(0, 500)}`);
  }
  return r;
}

/** One line of the results table. */
export interface Row {
  section: string;
  name: string;
  /** the measured figure, formatted */
  value: string;
  /** ratio or comparison, formatted */
  ratio?: string;
  target?: string;
  /** what exactly was measured */
  note?: string;
}

export const ms = (v: number): string => (v >= 1000 ? `${(v / 1000).toFixed(2)} s` : `${v.toFixed(v < 10 ? 2 : 0)} ms`);
export const ratio = (a: number, b: number): string => `${(a / b).toFixed(2)}×`;
export const stats = (times: readonly number[]): string =>
  `${ms(median(times))} (min ${ms(Math.min(...times))}, n=${times.length})`;

export function printTable(rows: readonly Row[]): void {
  const cols: (keyof Row)[] = ['name', 'value', 'ratio', 'target'];
  const width = Object.fromEntries(cols.map((c) => [c, Math.max(c.length, ...rows.map((r) => (r[c] ?? '').length))]));
  let section = '';
  for (const r of rows) {
    if (r.section !== section) {
      section = r.section;
      process.stdout.write(`\n== ${section} ==\n`);
      process.stdout.write(`${cols.map((c) => c.padEnd(width[c]!)).join('  ')}\n`);
    }
    process.stdout.write(
      `${cols
        .map((c) => (r[c] ?? '').padEnd(width[c]!))
        .join('  ')
        .trimEnd()}\n`,
    );
    if (r.note) process.stdout.write(`    ↳ ${r.note}\n`);
  }
}

/** Progress on stderr, so stdout stays the table. */
export const log = (line: string): void => void process.stderr.write(`[bench] ${line}\n`);

/**
 * Runs each named task `runs` times, round-robin (after one untimed warm-up round), so drift and
 * noise on the machine hit every task alike. Returns each task's milliseconds.
 */
export async function interleaved<K extends string>(
  runs: number,
  tasks: Record<K, () => Promise<unknown>>,
): Promise<Record<K, number[]>> {
  const keys = Object.keys(tasks) as K[];
  const times = Object.fromEntries(keys.map((k) => [k, [] as number[]])) as Record<K, number[]>;
  for (let i = -1; i < runs; i++) {
    for (const k of keys) {
      const t0 = performance.now();
      await tasks[k]();
      if (i >= 0) times[k].push(performance.now() - t0);
    }
  }
  return times;
}

/** A small git project for the -p runs: a manifest and a few source files. */
export function smallProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'opencode-bench-project-'));
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'small', type: 'module', scripts: { test: 'node test.js' } }),
  );
  mkdirSync(join(dir, 'src'));
  writeFileSync(join(dir, 'src', 'add.js'), 'export function add(a, b) {\n  return a + b;\n}\n');
  writeFileSync(join(dir, 'test.js'), "import { add } from './src/add.js';\nconsole.log(add(2, 3));\n");
  writeFileSync(join(dir, 'README.md'), '# small\n\nA small project.\n');
  execFileSync('git', ['init', '-q'], { cwd: dir });
  return dir;
}
