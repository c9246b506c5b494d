/**
 * Several processes opening a new database at the same moment (two `opencode -p` started together in a
 * new project) all succeed. SQLite answers the switch to WAL with SQLITE_BUSY at once in that race,
 * without waiting for the lock: about one open in five failed with "database is locked" in three
 * processes before openDatabase retried it (found by test/undo/undo-concurrent-runs in a loaded CI run).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, expect, it } from 'vitest';

const run = promisify(execFile);
const FIXTURE = join(import.meta.dirname, 'fixtures', 'first-opens.ts');
const OPENS = 40;
let root: string | undefined;
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

it('three processes opening 40 new databases together, each at the same instant: every open succeeds', async () => {
  root = mkdtempSync(join(tmpdir(), 'opencode-first-open-'));
  // after the three processes have loaded (~1 s each, more on a loaded machine)
  const start = Date.now() + 4000;
  const outputs = await Promise.all(
    [1, 2, 3].map(() =>
      run(process.execPath, ['--import', 'tsx', FIXTURE, root!, String(start), String(OPENS), '50'], {
        timeout: 60_000,
      }),
    ),
  );
  expect(outputs.map((o) => o.stdout)).toEqual(Array(3).fill(`ok ${OPENS}\n`));
}, 90_000);
