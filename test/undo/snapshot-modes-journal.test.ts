/**
 * The mode book's temporary file (written beside the snapshot repository at the end of a snapshot)
 * is in the run's leftover journal from before it exists until its rename, under a name the next
 * start's clean-up removes: an opencode killed mid-write leaves nothing behind once the project is
 * opened again.
 */
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanLeftovers, JOURNAL_DIR, LeftoverJournal, type RunJournal } from '../../src/app/leftovers.js';
import { setLeftoverRecorder, type LeftoverRecorder } from '../../src/tools/leftovers.js';
import { ModeBook } from '../../src/undo/snapshot-modes.js';
import { tempDir } from '../support/recording-context.js';

let tmp: { dir: string; remove(): void };
let root: string;
beforeEach(() => {
  tmp = tempDir('opencode-modes-journal-');
  root = realpathSync(tmp.dir);
});
afterEach(() => {
  setLeftoverRecorder(undefined);
  tmp.remove();
});

describe('the mode book and the leftover journal', () => {
  it('journals its temp file before creating it, and drops it after the rename', () => {
    const dataDir = join(root, '.opencode');
    const journal = new LeftoverJournal(dataDir);
    const journalFile = join(dataDir, JOURNAL_DIR, `run-${process.pid}.json`);
    const seen: { path: string; journaled: string[]; existed: boolean }[] = [];
    // the real journal records; this only reads its file at the moment the temp file is announced
    const recorder: LeftoverRecorder = {
      tempFileCreating: (path) => {
        journal.tempFileCreating(path);
        seen.push({
          path,
          journaled: (JSON.parse(readFileSync(journalFile, 'utf8')) as RunJournal).tempFiles,
          existed: existsSync(path),
        });
      },
      tempFileGone: (path) => journal.tempFileGone(path),
      stateDirCreated: (path) => journal.stateDirCreated(path),
      stateDirRemoved: (path) => journal.stateDirRemoved(path),
      processGroupStarted: (pgid) => journal.processGroupStarted(pgid),
      processGroupEnded: (pgid) => journal.processGroupEnded(pgid),
    };
    setLeftoverRecorder(recorder);

    const gitDir = join(root, 'snapshots', 'abc');
    mkdirSync(gitDir, { recursive: true });
    const book = new ModeBook(join(gitDir, 'opencode-modes'));
    book.load();
    writeFileSync(join(root, 'key.pem'), 'x');
    chmodSync(join(root, 'key.pem'), 0o600);
    book.note('key.pem', Buffer.from('key.pem'), lstatSync(join(root, 'key.pem')), Math.floor(Date.now() / 1000) + 10);
    expect(Object.fromEntries(book.commit())).toEqual({ 'key.pem': 0o600 });

    expect(seen).toHaveLength(1);
    const temp = seen[0]!.path;
    expect(temp).toMatch(new RegExp(`^${gitDir}/\\.opencode-modes\\.${process.pid}\\.[0-9a-f]{8}\\.tmp$`));
    expect(seen[0]).toEqual({ path: temp, journaled: [temp], existed: false });
    expect((JSON.parse(readFileSync(journalFile, 'utf8')) as RunJournal).tempFiles).toEqual([]);
    expect(readdirSync(gitDir)).toEqual(['opencode-modes']);
  });

  it('a temp file of that name left by a killed process is removed at the next start', () => {
    const dataDir = join(root, '.opencode');
    const gitDir = join(root, 'snapshots', 'abc');
    mkdirSync(gitDir, { recursive: true });
    const dead = spawnSync('true').pid!;
    const temp = join(gitDir, `.opencode-modes.${dead}.0badc0de.tmp`);
    writeFileSync(temp, '600 key.pem\0');
    mkdirSync(join(dataDir, JOURNAL_DIR), { recursive: true });
    const journal: RunJournal = {
      process: { pid: dead, startTicks: '1' },
      startedAtMs: 1000,
      tempFiles: [temp],
      stateDirs: [],
      groups: [],
    };
    writeFileSync(join(dataDir, JOURNAL_DIR, `run-${dead}.json`), JSON.stringify(journal));
    expect(cleanLeftovers(dataDir, root)).toMatchObject({ removedTempFiles: [temp] });
    expect(existsSync(temp)).toBe(false);
  });
});
