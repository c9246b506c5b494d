/**
 * Undo against a disk that changed in hostile ways since the turn: a file replaced by a
 * symbolic link to a file outside the project (even holding the exact bytes the turn left) is never
 * written through, not even with force; a file that became a folder is left alone, and forced, the
 * undo fails with nothing changed. A link that stays inside the project is still undone through it. Real agent, tools, SQLite and fake provider.
 */
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { undoTurn, UndoFailedError } from '../../src/undo/undo.js';
import { agentHarness, type Harness } from '../support/agent-harness.js';

let h: Harness | undefined;
let outsideDir: string | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
  if (outsideDir) rmSync(outsideDir, { recursive: true, force: true });
  outsideDir = undefined;
});

/** A session whose one turn edited `name` (through whatever is at that path) from `one` to `two`. */
async function turnEditing(setUp: (dir: string) => void, name: string): Promise<Harness> {
  h = await agentHarness([]);
  setUp(h.dir);
  h.fake.push(
    { toolCalls: [{ name: 'view', input: { file_path: name } }] },
    { toolCalls: [{ name: 'edit', input: { file_path: name, old_string: 'one', new_string: 'two' } }] },
    { text: 'ok' },
  );
  await h.agent.run(h.sessionId, 'edit it');
  return h;
}

describe('undo never writes through a link put in a file’s place', () => {
  it.each([false, true])('leaves the outside file alone (force: %s)', async (force) => {
    const h = await turnEditing((dir) => writeFileSync(join(dir, 'a.txt'), 'one\n'), 'a.txt');
    outsideDir = mkdtempSync(join(tmpdir(), 'opencode-outside-'));
    const victim = join(outsideDir, 'victim.txt');
    // the exact bytes and mode the turn left, so only the link betrays it
    writeFileSync(victim, 'two\n', { mode: statSync(join(h.dir, 'a.txt')).mode & 0o777 });
    rmSync(join(h.dir, 'a.txt'));
    symlinkSync(victim, join(h.dir, 'a.txt'));

    const result = undoTurn(h.db, h.sessionId, { cwd: h.dir, force });
    expect(result.files).toEqual([]);
    expect(result.conflicts).toEqual([
      {
        path: join(h.dir, 'a.txt'),
        reason: `is a symbolic link leading outside the project (to ${victim}); undo does not write through it — put the file back by hand if that is intended`,
        diff: '',
      },
    ]);
    expect(readFileSync(victim, 'utf8')).toBe('two\n');
  });

  it('still undoes through a link that was there when the turn began', async () => {
    const h = await turnEditing((dir) => {
      writeFileSync(join(dir, 'target.txt'), 'one\n');
      symlinkSync('target.txt', join(dir, 'link.txt'));
    }, 'link.txt');
    expect(readFileSync(join(h.dir, 'target.txt'), 'utf8')).toBe('two\n');
    const result = undoTurn(h.db, h.sessionId, { cwd: h.dir });
    expect(result.conflicts).toEqual([]);
    expect(result.files).toEqual([{ path: join(h.dir, 'link.txt'), action: 'restored' }]);
    expect(readFileSync(join(h.dir, 'target.txt'), 'utf8')).toBe('one\n');
  });

  it('leaves a link inside the project that now leads outside alone', async () => {
    const h = await turnEditing((dir) => {
      writeFileSync(join(dir, 'target.txt'), 'one\n');
      symlinkSync('target.txt', join(dir, 'link.txt'));
    }, 'link.txt');
    outsideDir = mkdtempSync(join(tmpdir(), 'opencode-outside-'));
    const victim = join(outsideDir, 'victim.txt');
    writeFileSync(victim, 'two\n', { mode: statSync(join(h.dir, 'target.txt')).mode & 0o777 });
    rmSync(join(h.dir, 'link.txt'));
    symlinkSync(victim, join(h.dir, 'link.txt'));
    const result = undoTurn(h.db, h.sessionId, { cwd: h.dir, force: true });
    expect(result.conflicts.map((c) => c.reason)).toEqual([
      `is a symbolic link leading outside the project (to ${victim}); undo does not write through it — put the file back by hand if that is intended`,
    ]);
    expect(readFileSync(victim, 'utf8')).toBe('two\n');
    expect(readFileSync(join(h.dir, 'target.txt'), 'utf8')).toBe('two\n');
  });
});

describe('undo never writes through a folder replaced by a link out of the project', () => {
  it('leaves the file in the outside folder alone, even with force', async () => {
    const h = await turnEditing((dir) => {
      mkdirSync(join(dir, 'sub'));
      writeFileSync(join(dir, 'sub', 'a.txt'), 'one\n');
    }, 'sub/a.txt');
    outsideDir = mkdtempSync(join(tmpdir(), 'opencode-outside-'));
    writeFileSync(join(outsideDir, 'a.txt'), 'two\n', { mode: statSync(join(h.dir, 'sub', 'a.txt')).mode & 0o777 });
    rmSync(join(h.dir, 'sub'), { recursive: true });
    symlinkSync(outsideDir, join(h.dir, 'sub'));
    const result = undoTurn(h.db, h.sessionId, { cwd: h.dir, force: true });
    expect(result.files).toEqual([]);
    expect(result.conflicts.map((c) => c.reason)).toEqual([
      `a folder on its path leads outside the project (to ${realpathSync(outsideDir)}); undo does not write through it — put the file back by hand if that is intended`,
    ]);
    expect(readFileSync(join(outsideDir, 'a.txt'), 'utf8')).toBe('two\n');
  });
});

describe('undo when a file became a folder', () => {
  it('leaves the folder alone and says why', async () => {
    const h = await turnEditing((dir) => writeFileSync(join(dir, 'a.txt'), 'one\n'), 'a.txt');
    rmSync(join(h.dir, 'a.txt'));
    mkdirSync(join(h.dir, 'a.txt'));
    writeFileSync(join(h.dir, 'a.txt', 'inside.txt'), 'mine\n');
    const result = undoTurn(h.db, h.sessionId, { cwd: h.dir });
    expect(result.files).toEqual([]);
    expect(result.conflicts).toEqual([
      {
        path: join(h.dir, 'a.txt'),
        reason: `cannot be read (${join(h.dir, 'a.txt')} is not a regular file)`,
        diff: '',
      },
    ]);
    expect(readFileSync(join(h.dir, 'a.txt', 'inside.txt'), 'utf8')).toBe('mine\n');
  });

  it('forced, fails naming the folder and changes nothing', async () => {
    const h = await turnEditing((dir) => {
      writeFileSync(join(dir, 'a.txt'), 'one\n');
      writeFileSync(join(dir, 'b.txt'), 'one\n');
    }, 'a.txt');
    rmSync(join(h.dir, 'a.txt'));
    mkdirSync(join(h.dir, 'a.txt'));
    expect(() => undoTurn(h.db, h.sessionId, { cwd: h.dir, force: true })).toThrow(UndoFailedError);
    expect(() => undoTurn(h.db, h.sessionId, { cwd: h.dir, force: true })).toThrow(
      `writing ${join(h.dir, 'a.txt')} failed: EISDIR: illegal operation on a directory, open '${join(h.dir, 'a.txt')}'. The files already written were returned to their state before: nothing changed.`,
    );
    expect(statSync(join(h.dir, 'a.txt')).isDirectory()).toBe(true);
  });
});

/** chattr +i works here (root on a file system with the immutable flag); else those tests are skipped. */
const canMakeImmutable = (() => {
  const probe = join(mkdtempSync(join(tmpdir(), 'opencode-chattr-')), 'probe');
  try {
    writeFileSync(probe, '');
    execFileSync('chattr', ['+i', probe], { stdio: 'ignore' });
    execFileSync('chattr', ['-i', probe], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(join(probe, '..'), { recursive: true, force: true });
  }
})();

describe('undo when a file cannot be written (immutable, even for root)', () => {
  it.runIf(canMakeImmutable)('fails naming the file and puts back the files already written', async () => {
    h = await agentHarness([]);
    const dir = h.dir;
    writeFileSync(join(dir, 'a.txt'), 'one\n');
    writeFileSync(join(dir, 'b.txt'), 'one\n');
    h.fake.push(
      { toolCalls: ['a.txt', 'b.txt'].map((name) => ({ name: 'view', input: { file_path: name } })) },
      {
        toolCalls: ['a.txt', 'b.txt'].map((name) => ({
          name: 'edit',
          input: { file_path: name, old_string: 'one', new_string: 'two' },
        })),
      },
      { text: 'ok' },
    );
    await h.agent.run(h.sessionId, 'edit both');
    execFileSync('chattr', ['+i', join(dir, 'b.txt')]);
    try {
      let message = '';
      try {
        undoTurn(h.db, h.sessionId, { cwd: dir });
      } catch (err) {
        expect(err).toBeInstanceOf(UndoFailedError);
        message = (err as Error).message;
      }
      expect(message).toMatch(
        new RegExp(
          `^writing ${join(dir, 'b.txt')} failed: .*EPERM.*\\. The files already written were returned to their state before: nothing changed\\.$`,
        ),
      );
      expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('two\n');
      expect(readFileSync(join(dir, 'b.txt'), 'utf8')).toBe('two\n');
    } finally {
      execFileSync('chattr', ['-i', join(dir, 'b.txt')]);
    }
    // writable again, the same undo goes through: the failed one recorded nothing
    expect(undoTurn(h.db, h.sessionId, { cwd: dir }).files.map((f) => f.action)).toEqual(['restored', 'restored']);
    expect(readFileSync(join(dir, 'b.txt'), 'utf8')).toBe('one\n');
  });
});

describe('undo of a file whose name holds a line break', () => {
  it('restores it', async () => {
    const h = await turnEditing((dir) => writeFileSync(join(dir, 'a\nb.txt'), 'one\n'), 'a\nb.txt');
    const result = undoTurn(h.db, h.sessionId, { cwd: h.dir });
    expect(result.files).toEqual([{ path: join(h.dir, 'a\nb.txt'), action: 'restored' }]);
    expect(readFileSync(join(h.dir, 'a\nb.txt'), 'utf8')).toBe('one\n');
  });
});
