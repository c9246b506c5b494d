/** Shared set-up for the storage tests: temp data directories and writer child processes. */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const WRITER = fileURLToPath(new URL('./fixtures/writer.ts', import.meta.url));

/** A fresh temp directory; returns it and its cleanup. The data dir itself is `<dir>/data` (not yet created). */
export function tempDataDir(): { root: string; dataDir: string; cleanup: () => void } {
  const root = mkdtempSync(path.join(tmpdir(), 'opencode-db-'));
  return { root, dataDir: path.join(root, 'data'), cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** A writer process (fixtures/writer.ts), started and waiting for {@link WriterProcess.go}. */
export interface WriterProcess {
  ready: Promise<void>;
  go(): void;
  /** resolves with the session id and the seqs the writer got */
  done: Promise<{ sessionId: string; seqs: number[] }>;
}

export function startWriter(dataDir: string, session: string, count: number): WriterProcess {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', WRITER, dataDir, session, String(count)], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    if (stdout.includes('ready\n')) markReady();
  });
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<{ sessionId: string; seqs: number[] }>((resolve, reject) => {
    child.on('exit', (code) => {
      const line = stdout.split('\n').find((l) => l.startsWith('done '));
      if (code !== 0 || !line) return reject(new Error(`writer exited ${code}: ${stderr}`));
      const [, sessionId, seqs] = line.split(' ');
      resolve({ sessionId, seqs: seqs ? seqs.split(',').map(Number) : [] });
    });
  });
  // a writer that dies before "ready" must fail the test, not hang it
  done.catch(() => markReady());
  return { ready, go: () => child.stdin!.write('go\n'), done };
}
