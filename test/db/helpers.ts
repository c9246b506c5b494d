/** Shared set-up for the storage tests: temp data directories and fixture child processes. */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';
import { openDatabase, type Database } from '../../src/db/index.js';

/** A fresh temp directory; returns it and its cleanup. The data dir itself is `<dir>/data` (not yet created). */
export function tempDataDir(): { root: string; dataDir: string; cleanup: () => void } {
  const root = mkdtempSync(path.join(tmpdir(), 'opencode-db-'));
  return { root, dataDir: path.join(root, 'data'), cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/**
 * Databases in temp directories for the tests of the calling file, closed and removed after each test
 * (registers an `afterEach`; call it at the file's top level). `dir()` makes a directory removed with
 * them; `open(dir)` opens (or reopens) the database of a directory, by default a new one.
 */
export function tempDatabases(): { dir: () => string; open: (dir?: string) => Database } {
  const dirs: string[] = [];
  const dbs: Database[] = [];
  afterEach(() => {
    for (const db of dbs.splice(0)) db.close();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const dir = () => {
    const made = mkdtempSync(path.join(tmpdir(), 'opencode-db-'));
    dirs.push(made);
    return made;
  };
  const open = (at = dir()) => {
    const db = openDatabase(at);
    dbs.push(db);
    return db;
  };
  return { dir, open };
}

/** Sets a session's `updated_at` as it is, as a write of an earlier build (or a clock set back) left it. */
export const setSessionUpdatedAt = (db: Database, id: string, at: number) =>
  db.connection.prepare('UPDATE sessions SET updated_at = ? WHERE id = ?').run(at, id);

/**
 * A fixture process speaking the storage tests' line protocol: it prints `ready` once set up, waits for
 * `go` (a stdin line), and at its end prints `done <rest>` and exits 0. `script` is a path under
 * `test/db/fixtures/`, run with tsx.
 */
export interface FixtureProcess {
  /** resolves at `ready`; rejects when the process exits before it (a test fails rather than hangs) */
  ready: Promise<void>;
  go(): void;
  /** writes `line` and a newline to the process's stdin */
  send(line: string): void;
  /** resolves with what follows `done ` once the process exited 0; rejects with its stderr otherwise */
  done: Promise<string>;
}

export function startFixture(script: string, args: string[]): FixtureProcess {
  const file = fileURLToPath(new URL(`./fixtures/${script}`, import.meta.url));
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', file, ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('ready\n')) resolve();
    });
    void exited.then((code) => reject(new Error(`${script} exited ${code} before ready: ${stderr}`)));
  });
  const done = exited.then((code) => {
    const line = stdout.split('\n').find((l) => l.startsWith('done '));
    if (code !== 0 || line === undefined) throw new Error(`${script} exited ${code}: ${stderr}`);
    return line.slice('done '.length);
  });
  const send = (line: string) => void child.stdin!.write(`${line}\n`);
  return { ready, go: () => send('go'), send, done };
}

/** A writer process (fixtures/writer.ts), started and waiting for {@link WriterProcess.go}. */
export interface WriterProcess {
  ready: Promise<void>;
  go(): void;
  /** resolves with the session id and the seqs the writer got */
  done: Promise<{ sessionId: string; seqs: number[] }>;
}

export function startWriter(dataDir: string, session: string, count: number): WriterProcess {
  const writer = startFixture('writer.ts', [dataDir, session, String(count)]);
  const done = writer.done.then((rest) => {
    const [sessionId, seqs] = rest.split(' ');
    return { sessionId: sessionId!, seqs: seqs ? seqs.split(',').map(Number) : [] };
  });
  return { ready: writer.ready, go: writer.go, done };
}
