/**
 * `opencode sessions import` against hostile files: every bad file gets an error naming
 * what is wrong and where, nothing is written then; what an import writes stays in the database — a
 * file history naming `../../etc/passwd` or an absolute path is text in a table, and an imported
 * session has no turn an undo could put on disk. Real SQLite files in temp dirs.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/index.js';
import { MAX_NESTING_DEPTH, parseSessionExport, SessionImportError } from '../../src/session-io/json-format.js';
import { exportSession, importSession } from '../../src/session-io/transfer.js';
import { NothingToUndoError, undoTurn } from '../../src/undo/undo.js';

const SESSION = {
  id: 's1',
  title: 't',
  promptTokens: 0,
  completionTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  contextTokens: 0,
  costUsd: 0,
  createdAt: 1,
  updatedAt: 1,
};
const message = (parts: unknown[]) => ({
  id: 'm1',
  sessionId: 's1',
  role: 'user',
  parts,
  seq: 1,
  createdAt: 1,
  updatedAt: 1,
});
const exportOf = (over: Record<string, unknown> = {}) => ({
  format: 'opencode-session',
  version: 1,
  sessions: [SESSION],
  messages: [message([{ type: 'text', text: 'hi' }])],
  files: [],
  ...over,
});
/** The import error for `value` (an object, or JSON text for values too deep to stringify), or `accepted`. */
const problem = (value: unknown) => {
  try {
    parseSessionExport(JSON.parse(typeof value === 'string' ? value : JSON.stringify(value)));
  } catch (err) {
    if (err instanceof SessionImportError) return err.message;
    throw err;
  }
  return 'accepted';
};

let dirs: string[] = [];
let db: Database | undefined;
afterEach(() => {
  db?.close();
  db = undefined;
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});
const project = () => {
  const dir = mkdtempSync(join(tmpdir(), 'opencode-import-'));
  dirs.push(dir);
  return dir;
};

describe('a hostile export is refused with the reason', () => {
  it('names a part of an unknown type and what to do', () => {
    expect(
      problem(
        exportOf({
          messages: [
            message([
              { type: 'text', text: 'hi' },
              { type: 'video', url: 'x' },
            ]),
          ],
        }),
      ),
    ).toBe(
      'messages.0.parts.1.type: a part of type "video" is not one this opencode knows (reasoning, text, image, tool_call, tool_result, finish, server_tool); ' +
        'it may come from a newer opencode: upgrade, or remove that part from the file',
    );
  });

  it('refuses values nested deeper than the limit instead of overflowing the stack when storing them', () => {
    const part = {
      type: 'tool_result',
      toolCallId: 'c',
      name: 'x',
      content: '',
      isError: false,
      metadata: { a: 'DEEP' },
    };
    const text = JSON.stringify(exportOf({ messages: [message([part])] })).replace(
      '"DEEP"',
      `${'['.repeat(200_000)}${']'.repeat(200_000)}`,
    );
    expect(problem(text)).toBe(
      `messages.0.parts.0.metadata.a.…: nested more than ${MAX_NESTING_DEPTH} levels deep (arrays and objects); ` +
        'this is not what opencode exports, so the file was made or changed by something else',
    );
  });

  it('accepts metadata nested as deep as the limit allows', () => {
    let nested: unknown = 1;
    // the root object, messages, 0, parts, 0, metadata: six levels before the metadata's own
    for (let i = 0; i < MAX_NESTING_DEPTH - 6; i++) nested = [nested];
    const part = {
      type: 'tool_result',
      toolCallId: 'c',
      name: 'x',
      content: '',
      isError: false,
      metadata: { a: nested },
    };
    expect(problem(exportOf({ messages: [message([part])] }))).toBe('accepted');
  });

  it('a sub-session cannot name itself or a later session as parent (no cycle reaches the database)', () => {
    const a = { ...SESSION, id: 'a', parentSessionId: 'b' };
    const b = { ...SESSION, id: 'b', parentSessionId: 'a' };
    expect(problem(exportOf({ sessions: [SESSION, a, b], messages: [] }))).toBe(
      `sessions.1.parentSessionId: a sub-agent session's parent must come before it in "sessions"`,
    );
    expect(
      problem(exportOf({ sessions: [SESSION, { ...SESSION, id: 'c', parentSessionId: 'c' }], messages: [] })),
    ).toBe(`sessions.1.parentSessionId: a sub-agent session's parent must come before it in "sessions"`);
  });
});

describe('an export with an undo note round-trips', () => {
  it('keeps the note mark of a text part (it was refused as an unknown key)', () => {
    const dir = project();
    db = openDatabase(join(dir, 'data'));
    const parts = [{ type: 'text', text: 'The user undid the last turn.', note: 'undo' }];
    const result = importSession(db, parseSessionExport(exportOf({ messages: [message(parts)] })));
    expect(db.messages.list(result.session.id)[0]!.parts).toEqual(parts);
    const again = parseSessionExport(JSON.parse(JSON.stringify(exportSession(db, result.session.id))));
    expect(again.messages[0]!.parts).toEqual(parts);
  });
});

describe('an imported file history never reaches the disk', () => {
  it('stores paths outside the project as text; undo of the imported session touches no file', () => {
    const dir = project();
    const outside = join(project(), 'victim.txt');
    writeFileSync(outside, 'keep me\n');
    db = openDatabase(join(dir, 'data'));
    const paths = ['../../etc/passwd', outside, '/etc/passwd', 'new\nline.txt'];
    const files = paths.map((path, i) => ({
      id: `f${i}`,
      sessionId: 's1',
      path,
      content: 'pwned\n',
      version: 'initial',
      createdAt: 1,
      updatedAt: 1,
    }));
    const result = importSession(db, parseSessionExport(exportOf({ files })));
    expect(
      db.files
        .listBySession(result.session.id)
        .map((f) => f.path)
        .sort(),
    ).toEqual([...paths].sort());
    expect(() => undoTurn(db!, result.session.id, { cwd: dir })).toThrow(NothingToUndoError);
    expect(readFileSync(outside, 'utf8')).toBe('keep me\n');
    expect(readFileSync('/etc/passwd', 'utf8')).not.toContain('pwned');
  });
});
