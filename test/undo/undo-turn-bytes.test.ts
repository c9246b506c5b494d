/**
 * Undo and redo of a turn's file changes, byte for byte: a turn that edited a Latin-1 file
 * with CRLF endings, created a file and deleted one (with patch) is taken back exactly — encoding, BOM,
 * line endings and mode — and redo puts the turn's bytes back. The agent, tools, SQLite file and
 * provider SDK are real; the model is the loopback fake.
 */
import {
  chmodSync,
  existsSync,
  lstatSync,
  readFileSync,
  readlinkSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { messageText } from '../../src/message.js';
import { NothingToUndoError, redoTurn, undoTurn } from '../../src/undo/undo.js';
import { agentHarness, type Harness } from '../support/agent-harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const LATIN1_CRLF = Buffer.from('caf\xe9 un\r\nd\xe9j\xe0 vu\r\nfin\r\n', 'latin1');
const BOM_CRLF = Buffer.from('\uFEFF#!/bin/sh\r\necho old\r\n', 'utf8');

function modeOf(path: string): number {
  return statSync(path).mode & 0o7777;
}

/** The turn of the issue: edit the Latin-1 file, create new.txt, delete old.sh with patch. */
function editCreateDelete(dir: string) {
  return [
    {
      toolCalls: [
        { name: 'view', input: { file_path: 'legacy.txt' } },
        { name: 'view', input: { file_path: 'old.sh' } },
      ],
    },
    {
      toolCalls: [
        { name: 'edit', input: { file_path: 'legacy.txt', old_string: 'fin', new_string: 'enfin été' } },
        { name: 'write', input: { file_path: join(dir, 'new.txt'), content: 'brand new\n' } },
        { name: 'patch', input: { patch_text: '*** Begin Patch\n*** Delete File: old.sh\n*** End Patch' } },
      ],
    },
    { text: 'Done.' },
  ];
}

async function harnessWithFiles() {
  h = await agentHarness([]);
  writeFileSync(join(h.dir, 'legacy.txt'), LATIN1_CRLF);
  chmodSync(join(h.dir, 'legacy.txt'), 0o640);
  writeFileSync(join(h.dir, 'old.sh'), BOM_CRLF);
  chmodSync(join(h.dir, 'old.sh'), 0o755);
  h.fake.push(...editCreateDelete(h.dir));
  return h;
}

describe('undo of a turn', () => {
  it('restores an edited Latin-1 CRLF file, removes a created one and re-creates a deleted one, bytes and modes exact; redo puts the turn back', async () => {
    const h = await harnessWithFiles();
    await h.agent.run(h.sessionId, 'tidy up the files');
    const legacyAfter = readFileSync(join(h.dir, 'legacy.txt'));
    expect(legacyAfter).toEqual(Buffer.from('caf\xe9 un\r\nd\xe9j\xe0 vu\r\nenfin \xe9t\xe9\r\n', 'latin1'));
    expect(existsSync(join(h.dir, 'old.sh'))).toBe(false);

    const undone = undoTurn(h.db, h.sessionId, { cwd: h.dir });
    expect(undone.prompt).toBe('tidy up the files');
    expect(undone.files.map((f) => [f.path.slice(h.dir.length + 1), f.action])).toEqual([
      ['legacy.txt', 'restored'],
      ['new.txt', 'removed'],
      ['old.sh', 'created'],
    ]);
    expect(undone.conflicts).toEqual([]);
    expect(readFileSync(join(h.dir, 'legacy.txt'))).toEqual(LATIN1_CRLF);
    expect(modeOf(join(h.dir, 'legacy.txt'))).toBe(0o640);
    expect(existsSync(join(h.dir, 'new.txt'))).toBe(false);
    expect(readFileSync(join(h.dir, 'old.sh'))).toEqual(BOM_CRLF);
    expect(modeOf(join(h.dir, 'old.sh'))).toBe(0o755);
    expect(messageText(undone.note!)).toBe(
      "The user undid the last turn's file changes: legacy.txt restored, new.txt removed, old.sh restored (it had been deleted). Read a file again before changing it.",
    );

    const redone = redoTurn(h.db, h.sessionId, { cwd: h.dir });
    expect(redone.files.map((f) => f.action)).toEqual(['restored', 'created', 'removed']);
    expect(readFileSync(join(h.dir, 'legacy.txt'))).toEqual(legacyAfter);
    expect(modeOf(join(h.dir, 'legacy.txt'))).toBe(0o640);
    expect(readFileSync(join(h.dir, 'new.txt'), 'utf8')).toBe('brand new\n');
    expect(existsSync(join(h.dir, 'old.sh'))).toBe(false);
    expect(messageText(redone.note!)).toBe(
      'The user redid the file changes they had undone: legacy.txt changed again, new.txt created again, old.sh removed again. Read a file again before changing it.',
    );
    expect(() => redoTurn(h.db, h.sessionId, { cwd: h.dir })).toThrow(NothingToUndoError);
  });

  it("tells the model in the next request, and the notes are not the person's words in the conversation", async () => {
    const h = await harnessWithFiles();
    await h.agent.run(h.sessionId, 'tidy up the files');
    undoTurn(h.db, h.sessionId, { cwd: h.dir });
    h.fake.push({ text: 'Understood.' });
    await h.agent.run(h.sessionId, 'what now?');
    const messages = h.fake.answered.at(-1).messages as { role: string; content: { type: string; text?: string }[] }[];
    const last = messages.at(-1)!;
    expect(last.role).toBe('user');
    expect(last.content.filter((b) => b.type === 'text').map((b) => b.text)).toEqual([
      "The user undid the last turn's file changes: legacy.txt restored, new.txt removed, old.sh restored (it had been deleted). Read a file again before changing it.",
      'what now?',
    ]);
    const notes = h.db.messages.list(h.sessionId).filter((m) => m.parts.some((p) => p.type === 'text' && p.note));
    expect(notes.map((m) => [m.role, m.parts[0]!.type === 'text' && m.parts[0]!.note])).toEqual([['user', 'undo']]);
  });

  it('walks back turn by turn, and redo walks forward again', async () => {
    h = await agentHarness([]);
    const file = join(h.dir, 'steps.txt');
    writeFileSync(file, 'zero\n');
    for (const [from, to] of [
      ['zero', 'one'],
      ['one', 'two'],
    ]) {
      h.fake.push(
        { toolCalls: [{ name: 'view', input: { file_path: file } }] },
        { toolCalls: [{ name: 'edit', input: { file_path: file, old_string: from, new_string: to } }] },
        { text: 'ok' },
      );
      await h.agent.run(h.sessionId, `make it ${to}`);
    }
    expect(readFileSync(file, 'utf8')).toBe('two\n');
    expect(undoTurn(h.db, h.sessionId, { cwd: h.dir }).prompt).toBe('make it two');
    expect(readFileSync(file, 'utf8')).toBe('one\n');
    expect(undoTurn(h.db, h.sessionId, { cwd: h.dir }).prompt).toBe('make it one');
    expect(readFileSync(file, 'utf8')).toBe('zero\n');
    expect(() => undoTurn(h!.db, h!.sessionId, { cwd: h!.dir })).toThrow(
      'Nothing to undo: no turn of this session has file changes left to undo.',
    );
    expect(redoTurn(h.db, h.sessionId, { cwd: h.dir }).prompt).toBe('make it one');
    expect(readFileSync(file, 'utf8')).toBe('one\n');
    expect(redoTurn(h.db, h.sessionId, { cwd: h.dir }).prompt).toBe('make it two');
    expect(readFileSync(file, 'utf8')).toBe('two\n');
  });

  it('a turn that changes files after an undo ends what can be redone', async () => {
    h = await agentHarness([]);
    const file = join(h.dir, 'a.txt');
    writeFileSync(file, 'a\n');
    h.fake.push(
      { toolCalls: [{ name: 'view', input: { file_path: file } }] },
      { toolCalls: [{ name: 'edit', input: { file_path: file, old_string: 'a', new_string: 'b' } }] },
      { text: 'ok' },
    );
    await h.agent.run(h.sessionId, 'b please');
    undoTurn(h.db, h.sessionId, { cwd: h.dir });
    h.fake.push(
      { toolCalls: [{ name: 'write', input: { file_path: join(h.dir, 'c.txt'), content: 'c\n' } }] },
      { text: 'ok' },
    );
    await h.agent.run(h.sessionId, 'c please');
    expect(() => redoTurn(h!.db, h!.sessionId, { cwd: h!.dir })).toThrow(
      'Nothing to redo: no turn was undone since the agent last changed files.',
    );
    expect(readFileSync(file, 'utf8')).toBe('a\n');
  });
  it('takes back a patch that moved a file and deleted a symbolic link: the link comes back as a link', async () => {
    h = await agentHarness([]);
    writeFileSync(join(h.dir, 'src.txt'), 'move me\n');
    writeFileSync(join(h.dir, 'target.txt'), 'target\n');
    symlinkSync('target.txt', join(h.dir, 'link.txt'));
    h.fake.push(
      {
        toolCalls: [
          { name: 'view', input: { file_path: 'src.txt' } },
          { name: 'view', input: { file_path: 'link.txt' } },
        ],
      },
      {
        toolCalls: [
          {
            name: 'patch',
            input: {
              patch_text:
                '*** Begin Patch\n*** Update File: src.txt\n*** Move to: moved/dst.txt\n@@\n-move me\n+moved\n*** Delete File: link.txt\n*** End Patch',
            },
          },
        ],
      },
      { text: 'ok' },
    );
    await h.agent.run(h.sessionId, 'move and unlink');
    expect(readFileSync(join(h.dir, 'moved/dst.txt'), 'utf8')).toBe('moved\n');
    expect(existsSync(join(h.dir, 'link.txt'))).toBe(false);

    const result = undoTurn(h.db, h.sessionId, { cwd: h.dir });
    expect(result.files.map((f) => [f.path.slice(h!.dir.length + 1), f.action])).toEqual([
      ['link.txt', 'created'],
      ['moved/dst.txt', 'removed'],
      ['src.txt', 'created'],
    ]);
    expect(readFileSync(join(h.dir, 'src.txt'), 'utf8')).toBe('move me\n');
    expect(existsSync(join(h.dir, 'moved/dst.txt'))).toBe(false);
    expect(lstatSync(join(h.dir, 'link.txt')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(h.dir, 'link.txt'))).toBe('target.txt');
    expect(readFileSync(join(h.dir, 'target.txt'), 'utf8')).toBe('target\n');
  });
});
