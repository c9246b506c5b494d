/**
 * The change tracker's exact states, with real git, a real SQLite file and real files: a
 * `chmod` in the very second the file was snapshotted (git compares ctime to the second), a snapshot
 * repository made before the mode book (one full pass finds the modes), and a large file whose
 * saved copy is gone by the time of the undo.
 */
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/index.js';
import type { ToolContext, ToolResult } from '../../src/tools/tool.js';
import { BashChangeTracker } from '../../src/undo/bash-changes.js';
import { ProjectSnapshots, SNAPSHOT_LIMITS, type SnapshotLimits } from '../../src/undo/snapshot.js';
import { undoTurn } from '../../src/undo/undo.js';
import { toolContext } from '../support/tool-context.js';

interface Setup {
  dir: string;
  dataDir: string;
  db: Database;
  ctx: ToolContext;
  trackers: BashChangeTracker[];
}

let open: Setup | undefined;
afterEach(() => {
  for (const tracker of open?.trackers ?? []) tracker.close();
  open?.db.close();
  open = undefined;
});

function setup(files: Record<string, string>): Setup {
  const dir = mkdtempSync(join(tmpdir(), 'opencode-bash-exact-'));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  const dataDir = join(dir, '.opencode');
  const db = openDatabase(dataDir);
  const sessionId = db.sessions.create({ title: 't' }).id;
  db.messages.create({ sessionId, role: 'user', parts: [{ type: 'text', text: 'do it' }] });
  const assistant = db.messages.create({ sessionId, role: 'assistant', parts: [] });
  open = { dir, dataDir, db, ctx: { ...toolContext(dir), sessionId, messageId: assistant.id }, trackers: [] };
  return open;
}

/** A tracker as the app makes one (a new process: a new one over the same repository). */
function tracker(s: Setup, limits: Partial<SnapshotLimits> = {}): BashChangeTracker {
  const snapshots = new ProjectSnapshots({ cwd: s.dir, dataDir: s.dataDir, limits: { ...SNAPSHOT_LIMITS, ...limits } });
  const made = new BashChangeTracker({ snapshots, cwd: s.dir, record: (w) => s.db.files.turns.record(w) });
  s.trackers.push(made);
  return made;
}

const ok = (): ToolResult => ({ output: 'done', isError: false });

/** The session's changes as [relative path, before mode, after mode]. */
const modes = (s: Setup) =>
  s.db.files.turns.list(s.ctx.sessionId).map((c) => [c.path.slice(s.dir.length + 1), c.before?.mode, c.after?.mode]);

describe('exact states of what bash changed', () => {
  it('sees a chmod made in the same second the file was snapshotted, which git alone does not', async () => {
    // start at the beginning of a second, so the snapshot and the chmod share it
    while (Date.now() % 1000 > 200) await new Promise((r) => setTimeout(r, 20));
    const s = setup({ 'a.txt': 'a' });
    const t = tracker(s);
    await t.firstSnapshot();
    await t.around('bash', s.ctx, async () => (chmodSync(join(s.dir, 'a.txt'), 0o600), ok()));
    await t.around('bash', s.ctx, async () => (chmodSync(join(s.dir, 'a.txt'), 0o2640), ok()));
    expect(modes(s)).toEqual([['a.txt', 0o644, 0o2640]]);
  });

  it('finds the modes in a snapshot repository made before the mode book, by one pass over its files', async () => {
    const s = setup({ 'key.pem': 'k', 'b.txt': 'b' });
    chmodSync(join(s.dir, 'key.pem'), 0o600);
    await tracker(s).firstSnapshot();
    const gitDir = join(s.dataDir, 'snapshots', readdirSync(join(s.dataDir, 'snapshots'))[0]!);
    // as an older opencode left the repository
    rmSync(join(gitDir, 'opencode-modes'));
    const next = tracker(s);
    await next.around('bash', s.ctx, async () => (writeFileSync(join(s.dir, 'key.pem'), 'K'), ok()));
    expect(modes(s)).toEqual([['key.pem', 0o600, 0o600]]);
    expect(existsSync(join(gitDir, 'opencode-modes'))).toBe(true);
  });

  it('leaves a large file alone when its saved copy is gone, naming it, and undoes the rest', async () => {
    const s = setup({ 'big.bin': 'x'.repeat(50), 'small.txt': 's' });
    const t = tracker(s, { maxInlineBytes: 10 });
    await t.around('bash', s.ctx, async () => {
      writeFileSync(join(s.dir, 'big.bin'), 'y'.repeat(50));
      writeFileSync(join(s.dir, 'small.txt'), 't');
      return ok();
    });
    const [big] = s.db.files.turns.list(s.ctx.sessionId);
    expect(big!.before?.blob?.size).toBe(50);
    t.close();
    rmSync(join(s.dataDir, 'snapshots'), { recursive: true });
    const result = undoTurn(s.db, s.ctx.sessionId, { cwd: s.dir });
    expect(result.files.map((f) => [f.path.slice(s.dir.length + 1), f.action])).toEqual([['small.txt', 'restored']]);
    expect(result.conflicts.map((c) => [c.path.slice(s.dir.length + 1), c.reason])).toEqual([
      ['big.bin', `its saved copy is gone (blob ${big!.before!.blob!.id} in ${big!.before!.blob!.repo})`],
    ]);
  });
});
