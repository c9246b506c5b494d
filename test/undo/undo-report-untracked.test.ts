/**
 * How an undo names what it could not put back (changes of bash not tracked): the listing
 * `sessions undo` prints and the logs show, the status line, the JSON, and the note for the model.
 */
import { describe, expect, it } from 'vitest';
import { formatUndoResult, undoResultJson, undoStatusLine } from '../../src/undo/report.js';
import type { TurnUndoResult } from '../../src/undo/result.js';
import { noteText } from '../../src/undo/undo.js';

const result: TurnUndoResult = {
  kind: 'undo',
  turnId: 'm1',
  prompt: 'tidy up',
  files: [{ path: '/p/a.txt', action: 'restored' }],
  conflicts: [],
  untracked: [
    'files changed by bash are not tracked: git not found',
    'data.bin changed by bash is not tracked: larger than 100 MiB',
  ],
};

describe('an undo with changes that were not tracked', () => {
  it('lists the reasons after the files, once each', () => {
    expect(formatUndoResult(result, '/p')).toBe(
      'Undid the turn "tidy up":\n  restored  a.txt\n' +
        'Not put back (changes that were not tracked stay as they are):\n' +
        '  files changed by bash are not tracked: git not found\n' +
        '  data.bin changed by bash is not tracked: larger than 100 MiB\n',
    );
  });

  it('says so in the status line, the JSON and the note', () => {
    expect(undoStatusLine(result)).toBe('Undid "tidy up": 1 file; some changes were not tracked');
    expect(undoResultJson(result, '/p').untracked).toEqual(result.untracked);
    expect(noteText(result, '/p')).toBe(
      "The user undid the last turn's file changes: a.txt restored. Not put back (files changed by bash are not tracked: git not found; " +
        'data.bin changed by bash is not tracked: larger than 100 MiB). Read a file again before changing it.',
    );
  });
});
