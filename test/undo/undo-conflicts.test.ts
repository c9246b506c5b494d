/**
 * Undo never overwrites someone else's work: a file that changed since the turn (a person,
 * a formatter) is left exactly as it is, named with the difference, while the rest of the turn is
 * undone; when every file changed, nothing happens. Real agent, tools, SQLite and fake provider.
 */
import { chmodSync, existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { messageText } from '../../src/message.js';
import { NothingToUndoError, redoTurn, undoTurn } from '../../src/undo/undo.js';
import { formatUndoResult } from '../../src/undo/report.js';
import { agentHarness, type Harness } from '../support/agent-harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** A session whose one turn edited each of `files` (name → [from, to]) with view + edit. */
async function turnEditing(files: Record<string, [string, string]>): Promise<Harness> {
  h = await agentHarness([]);
  const names = Object.keys(files);
  for (const name of names) writeFileSync(join(h.dir, name), `${files[name]![0]}\n`);
  h.fake.push(
    { toolCalls: names.map((name) => ({ name: 'view', input: { file_path: name } })) },
    {
      toolCalls: names.map((name) => ({
        name: 'edit',
        input: { file_path: name, old_string: files[name]![0], new_string: files[name]![1] },
      })),
    },
    { text: 'ok' },
  );
  await h.agent.run(h.sessionId, 'edit them');
  return h;
}

describe('undo when a file changed since the turn', () => {
  it('refuses to overwrite it: nothing is written, the difference is shown, the turn stays undoable', async () => {
    const h = await turnEditing({ 'a.txt': ['one', 'two'] });
    writeFileSync(join(h.dir, 'a.txt'), 'two\nmine\n');
    const result = undoTurn(h.db, h.sessionId, { cwd: h.dir });
    expect(result.files).toEqual([]);
    expect(result.note).toBeUndefined();
    expect(result.conflicts).toEqual([
      {
        path: join(h.dir, 'a.txt'),
        reason: 'changed since',
        diff: '--- a/a.txt\n+++ b/a.txt\n@@ -1,1 +1,2 @@\n two\n+mine\n',
      },
    ]);
    expect(readFileSync(join(h.dir, 'a.txt'), 'utf8')).toBe('two\nmine\n');
    expect(formatUndoResult(result, h.dir)).toBe(
      'Nothing undone: every file of the turn "edit them" changed since.\n' +
        'Left alone, changed since (your changes are kept):\n' +
        '  a.txt: changed since\n' +
        '    --- a/a.txt\n    +++ b/a.txt\n    @@ -1,1 +1,2 @@\n     two\n    +mine\n',
    );
    // nothing changed: no note in the conversation, and the same turn is what undo finds again
    expect(h.db.messages.list(h.sessionId).filter((m) => m.parts.some((p) => p.type === 'text' && p.note))).toEqual([]);
    expect(undoTurn(h.db, h.sessionId, { cwd: h.dir }).conflicts.map((c) => c.reason)).toEqual(['changed since']);
  });

  it('undoes the other files of the turn and names the one left alone in the note', async () => {
    const h = await turnEditing({ 'a.txt': ['one', 'two'], 'b.txt': ['red', 'blue'] });
    writeFileSync(join(h.dir, 'b.txt'), 'BLUE\n'); // a formatter ran
    const result = undoTurn(h.db, h.sessionId, { cwd: h.dir });
    expect(result.files.map((f) => f.action)).toEqual(['restored']);
    expect(readFileSync(join(h.dir, 'a.txt'), 'utf8')).toBe('one\n');
    expect(readFileSync(join(h.dir, 'b.txt'), 'utf8')).toBe('BLUE\n');
    expect(messageText(result.note!)).toBe(
      "The user undid the last turn's file changes: a.txt restored. Left as they are, because they changed since: b.txt. Read a file again before changing it.",
    );
    // the turn is undone: undo goes on to the turn before (none here)
    expect(() => undoTurn(h.db, h.sessionId, { cwd: h.dir })).toThrow(NothingToUndoError);
    // redo puts back what undo restored and leaves b.txt alone
    const redone = redoTurn(h.db, h.sessionId, { cwd: h.dir });
    expect(redone.files.map((f) => f.path)).toEqual([join(h.dir, 'a.txt')]);
    expect(redone.conflicts).toEqual([]);
    expect(readFileSync(join(h.dir, 'a.txt'), 'utf8')).toBe('two\n');
    expect(readFileSync(join(h.dir, 'b.txt'), 'utf8')).toBe('BLUE\n');
  });

  it('says when the file was deleted or its mode changed since', async () => {
    const h = await turnEditing({ 'gone.txt': ['one', 'two'], 'mode.sh': ['x', 'y'] });
    rmSync(join(h.dir, 'gone.txt'));
    chmodSync(join(h.dir, 'mode.sh'), 0o755);
    const result = undoTurn(h.db, h.sessionId, { cwd: h.dir });
    const mode = (statSync(join(h.dir, 'mode.sh')).mode & 0o777).toString(8);
    expect(mode).toBe('755');
    expect(result.conflicts.map((c) => [c.path.slice(h.dir.length + 1), c.reason, c.diff])).toEqual([
      ['gone.txt', 'was deleted since', '--- a/gone.txt\n+++ b/gone.txt\n@@ -1,1 +0,0 @@\n-two\n'],
      ['mode.sh', 'mode changed since (644 → 755)', ''],
    ]);
    expect(existsSync(join(h.dir, 'gone.txt'))).toBe(false);
  });

  it('overwrites with force, still reporting the difference', async () => {
    const h = await turnEditing({ 'a.txt': ['one', 'two'] });
    writeFileSync(join(h.dir, 'a.txt'), 'two\nmine\n');
    const result = undoTurn(h.db, h.sessionId, { cwd: h.dir, force: true });
    expect(result.files.map((f) => f.action)).toEqual(['restored']);
    expect(result.conflicts.map((c) => c.reason)).toEqual(['changed since']);
    expect(readFileSync(join(h.dir, 'a.txt'), 'utf8')).toBe('one\n');
  });

  it('redo leaves alone a file changed after the undo', async () => {
    const h = await turnEditing({ 'a.txt': ['one', 'two'] });
    undoTurn(h.db, h.sessionId, { cwd: h.dir });
    writeFileSync(join(h.dir, 'a.txt'), 'one\nmine\n');
    const result = redoTurn(h.db, h.sessionId, { cwd: h.dir });
    expect(result.files).toEqual([]);
    expect(result.conflicts.map((c) => [c.reason, c.diff])).toEqual([
      ['changed since', '--- a/a.txt\n+++ b/a.txt\n@@ -1,1 +1,2 @@\n one\n+mine\n'],
    ]);
    expect(readFileSync(join(h.dir, 'a.txt'), 'utf8')).toBe('one\nmine\n');
  });
});
