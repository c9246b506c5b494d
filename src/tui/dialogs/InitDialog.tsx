/**
 * "Initialize Project": asked once per project on the first start (as in the original). Yes makes
 * the shell run the `init` command, which asks the agent to write or improve `OpenCode.md`. Either
 * answer, and a cancel, mark the project as asked (the original's behaviour: it never asks again).
 */
import { Text } from 'ink';
import { DialogFrame, FRAME_HORIZONTAL_COLUMNS, clamp, useScreenSize } from '../components/DialogFrame.js';
import { LAYER, useKeys } from '../input/InputProvider.js';
import { confirmButtons } from '../key-hints.js';
import { useKeymap } from '../keymap-context.js';
import { wrapText } from '../render/text-width.js';
import { useTheme } from '../theme-context.js';
import { useLatestState } from '../useLatestState.js';
import { Buttons } from './Buttons.js';
import type { DialogSizeProps } from './ListDialog.js';

export interface InitDialogProps extends DialogSizeProps {
  /** true: initialise now; false: no, or cancelled (esc/q); the shell marks the project asked either way */
  onAnswer(init: boolean): void;
}

/** What initialising does, shown above the buttons. */
export const INIT_EXPLANATION =
  'Initialization asks the agent to write (or improve) an OpenCode.md file in this project: about ' +
  '20 lines with the build, lint and test commands (above all how to run a single test) and the ' +
  "code style, folding in any Cursor or Copilot rule files. It serves as the agent's memory of the " +
  'project; you can edit it and add your own notes.';

/** The question above the buttons. */
export const INIT_QUESTION = 'Would you like to initialize this project?';

/**
 * The init dialog: 60 columns (less on a narrow screen). tab/←/→/h/l toggle Yes and No (Yes at
 * first), enter or space confirm, y/n answer directly, esc/q answer false.
 */
export function InitDialog({ onAnswer, width, height }: InitDialogProps) {
  const theme = useTheme();
  const keymap = useKeymap();
  const screen = useScreenSize(width, height);
  // the button as the last key left it (tab and enter in one read reach the handler before a re-render)
  const [selected, selectedRef, setSelected] = useLatestState(0);
  useKeys(
    (key) => {
      if (keymap.matches(key, 'confirm.yes')) onAnswer(true);
      else if (keymap.matches(key, 'confirm.no') || keymap.matches(key, 'init.cancel')) onAnswer(false);
      else if (
        keymap.matches(key, 'init.toggle') ||
        keymap.matches(key, 'button.next') ||
        keymap.matches(key, 'button.previous')
      )
        setSelected(1 - selectedRef.current);
      else if (keymap.matches(key, 'button.press')) onAnswer(selectedRef.current === 0);
      return true;
    },
    { layer: LAYER.dialog },
  );
  const frameWidth = clamp(60, 30, screen.columns - 2);
  const inner = frameWidth - FRAME_HORIZONTAL_COLUMNS;
  return (
    <DialogFrame title="Initialize Project" width={frameWidth}>
      <Text> </Text>
      {/* wrapped here, not by Ink: Ink's wrap starts a row with the space after a word that fills the
          row exactly ("│  or Copilot rule files" at 80 columns) */}
      {wrapText(INIT_EXPLANATION, inner).map((line, i) => (
        <Text key={i} color={theme.text} wrap="truncate">
          {line}
        </Text>
      ))}
      <Text> </Text>
      {wrapText(INIT_QUESTION, inner).map((line, i) => (
        <Text key={`q${i}`} color={theme.text} bold wrap="truncate">
          {line}
        </Text>
      ))}
      <Text> </Text>
      <Buttons buttons={confirmButtons(keymap)} selected={selected} width={inner} />
    </DialogFrame>
  );
}
