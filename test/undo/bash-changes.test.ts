/**
 * The change tracker around program-running tools, with real git, a real SQLite file and
 * real files: what the call changed becomes turn changes with exact bytes and modes, merged with a
 * path `edit` already recorded; a file over the size limit and a symbolic link are named, not
 * recorded; a project over the file bound, a first snapshot still running, and a person's change
 * made while the permission dialog was open are each handled as documented in bash-changes.ts.
 */
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/index.js';
import { UNTRACKED_CHANGES, tracksChanges } from '../../src/tools/change-tracker.js';
import type { ToolContext, ToolResult } from '../../src/tools/tool.js';
import { BashChangeTracker, type TrackerTimings } from '../../src/undo/bash-changes.js';
import { ProjectSnapshots, SNAPSHOT_LIMITS, type SnapshotLimits } from '../../src/undo/snapshot.js';
import { undoTurn } from '../../src/undo/undo.js';
import { toolContext } from '../support/tool-context.js';

interface Setup {
  dir: string;
  db: Database;
  tracker: BashChangeTracker;
  ctx: ToolContext;
}

let open: Setup | undefined;
afterEach(() => {
  open?.tracker.close();
  open?.db.close();
  open = undefined;
});

/** A project with `files`, a session with a person's message and an assistant message, and a tracker. */
function setup(
  files: Record<string, string | Buffer>,
  options: { limits?: Partial<SnapshotLimits>; timings?: Partial<TrackerTimings> } = {},
): Setup {
  const dir = mkdtempSync(join(tmpdir(), 'opencode-bash-changes-'));
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
  const dataDir = join(dir, '.opencode');
  const db = openDatabase(dataDir);
  const sessionId = db.sessions.create({ title: 't' }).id;
  db.messages.create({ sessionId, role: 'user', parts: [{ type: 'text', text: 'do it' }] });
  const assistant = db.messages.create({ sessionId, role: 'assistant', parts: [] });
  const snapshots = new ProjectSnapshots({ cwd: dir, dataDir, limits: { ...SNAPSHOT_LIMITS, ...options.limits } });
  const tracker = new BashChangeTracker({
    snapshots,
    cwd: dir,
    record: (w) => db.files.turns.record(w),
    timings: options.timings,
  });
  const ctx = { ...toolContext(dir), sessionId, messageId: assistant.id };
  open = { dir, db, tracker, ctx };
  return open;
}

const ok = (output = 'done'): ToolResult => ({ output, isError: false });

/** The session's turn changes as [relative path, before text, before mode, after text, after mode]. */
function changes(s: Setup) {
  return s.db.files.turns
    .list(s.ctx.sessionId)
    .map((c) => [
      c.path.slice(s.dir.length + 1),
      c.before && Buffer.from(c.before.bytes).toString('latin1'),
      c.before?.mode,
      c.after && Buffer.from(c.after.bytes).toString('latin1'),
      c.after?.mode,
    ]);
}

describe('the change tracker', () => {
  it('records what the call changed, with modes; a path edit recorded first keeps its first before', async () => {
    const s = setup({ 'a.txt': 'one\n', 'b.txt': 'bee\n', 'run.sh': 'echo\n' });
    chmodSync(join(s.dir, 'b.txt'), 0o600);
    // edit changed a.txt earlier in the turn
    s.db.files.turns.record({
      sessionId: s.ctx.sessionId,
      messageId: s.ctx.messageId,
      path: join(s.dir, 'a.txt'),
      before: { bytes: Buffer.from('zero\n'), mode: 0o644 },
      after: { bytes: Buffer.from('one\n'), mode: 0o644 },
    });
    const result = await s.tracker.around('bash', s.ctx, async () => {
      writeFileSync(join(s.dir, 'a.txt'), 'two\r\n');
      rmSync(join(s.dir, 'b.txt'));
      chmodSync(join(s.dir, 'run.sh'), 0o750);
      mkdirSync(join(s.dir, 'gen'));
      writeFileSync(join(s.dir, 'gen', 'out.bin'), Buffer.from([0, 255, 13, 10]));
      return ok();
    });
    expect(result).toEqual(ok());
    expect(changes(s)).toEqual([
      ['a.txt', 'zero\n', 0o644, 'two\r\n', 0o644],
      ['b.txt', 'bee\n', 0o600, null, undefined],
      ['gen/out.bin', null, undefined, '\x00\xff\r\n', 0o644],
      ['run.sh', 'echo\n', 0o644, 'echo\n', 0o750],
    ]);
  });

  it('names a file over the size limit instead of recording it; records a symbolic link as the link', async () => {
    const s = setup({ 'big.dat': 'x'.repeat(200), 'small.txt': 's\n' }, { limits: { maxFileBytes: 100 } });
    const result = await s.tracker.around('bash', s.ctx, async () => {
      writeFileSync(join(s.dir, 'big.dat'), 'y'.repeat(200));
      symlinkSync('small.txt', join(s.dir, 'link'));
      writeFileSync(join(s.dir, 'small.txt'), 't\n');
      return ok();
    });
    expect(result.metadata?.[UNTRACKED_CHANGES]).toEqual([
      'big.dat changed by bash is not tracked: larger than 100 bytes',
    ]);
    expect(changes(s)).toEqual([
      ['link', null, undefined, 'small.txt', 0o777],
      ['small.txt', 's\n', 0o644, 't\n', 0o644],
    ]);
    expect(s.db.files.turns.list(s.ctx.sessionId)[0]!.after).toMatchObject({ symlink: true, linkTarget: 'small.txt' });
    // the result is stored as the agent stores it; the undo puts back what was recorded and repeats what was not
    s.db.messages.create({
      sessionId: s.ctx.sessionId,
      role: 'tool',
      parts: [
        {
          type: 'tool_result',
          toolCallId: 'c1',
          name: 'bash',
          content: 'done',
          isError: false,
          metadata: result.metadata,
        },
      ],
    });
    const undone = undoTurn(s.db, s.ctx.sessionId, { cwd: s.dir });
    expect(undone.untracked).toEqual(result.metadata?.[UNTRACKED_CHANGES]);
    expect(readFileSync(join(s.dir, 'small.txt'), 'utf8')).toBe('s\n');
    expect(existsSync(join(s.dir, 'link'))).toBe(false);
    expect(readFileSync(join(s.dir, 'big.dat'), 'utf8')).toBe('y'.repeat(200));
  });

  it('records what a canceled call changed before it stopped, a file whose name is not UTF-8 under its raw bytes', async () => {
    const s = setup({ 'a.txt': 'a' });
    const abort = new AbortController();
    const result = await s.tracker.around('bash', { ...s.ctx, signal: abort.signal }, async () => {
      writeFileSync(join(s.dir, 'a.txt'), 'half');
      writeFileSync(Buffer.from(join(s.dir, 'caf\xe9.txt'), 'latin1'), 'x');
      abort.abort();
      return { output: 'Command was aborted before completion', isError: true };
    });
    expect(result.metadata).toBeUndefined();
    expect(changes(s)).toEqual([
      ['a.txt', 'a', 0o644, 'half', 0o644],
      ['caf\ufffd.txt', null, undefined, 'x', 0o644],
    ]);
    expect(s.db.files.turns.list(s.ctx.sessionId)[1]!.pathBytes).toEqual(
      Buffer.from(join(s.dir, 'caf\xe9.txt'), 'latin1'),
    );
  });

  it('records none of a call whose changes add up to more than the bound, and says so', async () => {
    const s = setup({ 'a.txt': 'a'.repeat(60), 'b.txt': 'b' }, { limits: { maxChangeBytes: 100 } });
    const result = await s.tracker.around('bash', s.ctx, async () => {
      writeFileSync(join(s.dir, 'a.txt'), 'A'.repeat(60));
      writeFileSync(join(s.dir, 'b.txt'), 'B');
      return ok();
    });
    expect(result.metadata?.[UNTRACKED_CHANGES]).toEqual([
      'files changed by bash are not tracked: the call changed more than 100 bytes of files',
    ]);
    expect(changes(s)).toEqual([]);
  });

  it('snapshots nothing in a project over the file bound, and says why for every call', async () => {
    const s = setup({ 'a.txt': 'a', 'b.txt': 'b', 'c.txt': 'c' }, { limits: { maxFiles: 2 } });
    const run = () => s.tracker.around('bash', s.ctx, async () => (writeFileSync(join(s.dir, 'a.txt'), 'A'), ok()));
    const reason = [
      'files changed by bash are not tracked: the project has more than 2 files not ignored by .gitignore',
    ];
    expect((await run()).metadata?.[UNTRACKED_CHANGES]).toEqual(reason);
    expect((await run()).metadata?.[UNTRACKED_CHANGES]).toEqual(reason);
    expect(changes(s)).toEqual([]);
  });

  it('waits for another process holding the snapshot index, then runs untracked; a lock left by a killed git is removed', async () => {
    const s = setup({ 'a.txt': 'a' });
    await s.tracker.firstSnapshot();
    const snapshots = join(s.dir, '.opencode', 'snapshots');
    const lock = join(snapshots, readdirSync(snapshots)[0]!, 'index.lock');
    writeFileSync(lock, '');
    const held = await s.tracker.around('bash', s.ctx, async () => (writeFileSync(join(s.dir, 'a.txt'), 'b'), ok()));
    expect(held.metadata?.[UNTRACKED_CHANGES]).toEqual([
      'files changed by bash are not tracked: another opencode in this project is taking a snapshot',
    ]);
    // an hour old: no git works that long on a snapshot
    utimesSync(lock, new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));
    await s.tracker.around('bash', s.ctx, async () => (writeFileSync(join(s.dir, 'a.txt'), 'c'), ok()));
    expect(existsSync(lock)).toBe(false);
    expect(changes(s).map((c) => c.slice(0, 4))).toEqual([['a.txt', 'b', 0o644, 'c']]);
  });

  it('stops tracking for the run after a snapshot that took too long', async () => {
    const s = setup({ 'a.txt': 'a' });
    await s.tracker.firstSnapshot();
    const slow = new BashChangeTracker({
      snapshots: new ProjectSnapshots({ cwd: s.dir, dataDir: join(s.dir, '.opencode') }),
      cwd: s.dir,
      record: (w) => s.db.files.turns.record(w),
      timings: { snapshotTimeoutMs: 0 },
    });
    await slow.firstSnapshot();
    const reason = ['files changed by bash are not tracked: taking a snapshot took longer than 0 s'];
    expect((await slow.around('bash', s.ctx, async () => ok())).metadata?.[UNTRACKED_CHANGES]).toEqual(reason);
    expect((await slow.around('bash', s.ctx, async () => ok())).metadata?.[UNTRACKED_CHANGES]).toEqual(reason);
    slow.close();
  });

  it('runs a call that comes while the first snapshot is still being taken untracked, and tracks the next', async () => {
    const s = setup({ 'a.txt': 'a' }, { timings: { firstSnapshotWaitMs: 0 } });
    const first = await s.tracker.around('bash', s.ctx, async () => (writeFileSync(join(s.dir, 'a.txt'), 'b'), ok()));
    expect(first.metadata?.[UNTRACKED_CHANGES]).toEqual([
      'files changed by bash are not tracked: the first snapshot of the project was still being taken',
    ]);
    // the call ran, not waiting
    expect(readFileSync(join(s.dir, 'a.txt'), 'utf8')).toBe('b');
    // once the first snapshot is in, calls are tracked (the waiting call above never is)
    await s.tracker.firstSnapshot();
    const second = await s.tracker.around('bash', s.ctx, async () => (writeFileSync(join(s.dir, 'a.txt'), 'c'), ok()));
    expect(second.metadata).toBeUndefined();
    expect(changes(s).map((c) => c.slice(0, 4))).toEqual([['a.txt', 'b', 0o644, 'c']]);
  });

  it("retakes the before-snapshot after a permission the person took time over: their change meanwhile is not the call's", async () => {
    const s = setup({ 'mine.txt': 'v1', 'its.txt': 'i1' }, { timings: { retakeAfterPermissionMs: 0 } });
    s.ctx.askPermission = async () => {
      // the person saves a file while the dialog is open
      writeFileSync(join(s.dir, 'mine.txt'), 'v2');
    };
    await s.tracker.around('bash', s.ctx, async (ctx) => {
      await ctx.askPermission({ action: 'execute', description: 'x', params: {}, path: s.dir });
      writeFileSync(join(s.dir, 'its.txt'), 'i2');
      return ok();
    });
    expect(changes(s).map((c) => c.slice(0, 4))).toEqual([['its.txt', 'i1', 0o644, 'i2']]);
  });

  it("records nothing for a denied call, and leaves the project's .git and ignored files out", async () => {
    const s = setup({ '.gitignore': 'build/\n', '.git/config': '[core]\n', 'build/x.o': 'o' });
    const denied = await s.tracker.around('bash', s.ctx, async () => ({
      output: 'Permission denied',
      isError: true,
      permissionDenied: true,
    }));
    expect(denied.metadata).toBeUndefined();
    await s.tracker.around('bash', s.ctx, async () => {
      writeFileSync(join(s.dir, 'build', 'x.o'), 'p');
      writeFileSync(join(s.dir, '.git', 'config'), '[core]\n\tbare = false\n');
      writeFileSync(join(s.dir, 'kept.txt'), 'k');
      return ok();
    });
    expect(changes(s).map((c) => c[0])).toEqual(['kept.txt']);
    // the first snapshot started the day's prune of old versions (detached), and marked it
    expect(readdirSync(join(s.dir, '.opencode', 'snapshots'))).toHaveLength(1);
    const gitDir = join(s.dir, '.opencode', 'snapshots', readdirSync(join(s.dir, '.opencode', 'snapshots'))[0]!);
    expect(existsSync(join(gitDir, 'opencode-pruned'))).toBe(true);
    expect(readFileSync(join(gitDir, 'info', 'attributes'), 'utf8')).toBe('* -text -filter -diff -merge -ident\n');
  });
});

describe('which calls are tracked', () => {
  it.each([
    ['bash', 'builtin', false, true],
    ['deploy', 'project', false, true],
    ['github_create_issue', 'mcp', false, true],
    ['edit', 'builtin', false, false],
    ['write', 'builtin', false, false],
    ['patch', 'builtin', false, false],
    ['edit', 'project', false, true],
    ['view', 'builtin', true, false],
    ['search_docs', 'mcp', true, false],
  ])('%s from %s (readOnly %s): %s', (name, source, readOnly, tracked) => {
    expect(tracksChanges({ name, readOnly }, source)).toBe(tracked);
  });
});
