/**
 * The init dialog's text wraps without a stray space: at 80 columns Ink's own wrap began a row with
 * the space after "Cursor", which filled the row above exactly ("│  or Copilot rule files.").
 */
import { describe, expect, it } from 'vitest';
import { INIT_EXPLANATION, INIT_QUESTION, InitDialog } from '../../src/tui/dialogs/InitDialog.js';
import { dialogPerTest } from '../support/render-dialog.js';

const show = dialogPerTest();

/** The rows inside the frame, without the border and the one space of padding each side. */
const inside = (frame: string) =>
  frame
    .split('\n')
    .slice(1, -1)
    .map((row) => row.slice(2, -2));

describe('init dialog layout', () => {
  it('at 80 columns reads as whole rows, none starting with a space', async () => {
    const d = await show(<InitDialog onAnswer={() => {}} width={80} height={30} />);
    expect(inside(d.frame()).map((row) => row.trimEnd())).toEqual([
      'Initialize Project',
      '',
      'Initialization asks the agent to write (or improve) an',
      'OpenCode.md file in this project: about 20 lines with',
      'the build, lint and test commands (above all how to run',
      'a single test) and the code style, folding in any Cursor',
      "or Copilot rule files. It serves as the agent's memory",
      'of the project; you can edit it and add your own notes.',
      '',
      'Would you like to initialize this project?',
      '',
      '›Yes (y)‹  No (n)',
    ]);
  });

  it.each(Array.from({ length: 50 }, (_, i) => 32 + i))(
    'at %i columns no row starts with a space and no word is lost',
    async (columns) => {
      const d = await show(<InitDialog onAnswer={() => {}} width={columns} height={40} />);
      const rows = inside(d.frame());
      expect(rows.filter((row) => /^ +\S/.test(row))).toEqual([]);
      expect(rows.join(' ').replace(/\s+/g, ' ')).toContain(`${INIT_EXPLANATION} ${INIT_QUESTION}`);
    },
  );
});
