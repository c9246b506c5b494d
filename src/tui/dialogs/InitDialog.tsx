/**
 * "Initialize Project": asked once per project on the first start (reference §9.3–9.4). Yes makes
 * the shell run the `init` command, which asks the agent to write or improve `OpenCode.md`. Either
 * answer, and a cancel, mark the project as asked (the original's behaviour: it never asks again).
 */
import { Text } from 'ink';
import { useState } from 'react';
import { DialogFrame, FRAME_HORIZONTAL_COLUMNS, clamp, useScreenSize } from '../components/DialogFrame.js';
import { LAYER, useKeys } from '../input/InputProvider.js';
import { confirmButtons } from '../key-hints.js';
import { useKeymap } from '../keymap-context.js';
import { useTheme } from '../theme-context.js';
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


/**
 * The init dialog: 60 columns (less on a narrow screen). tab/←/→/h/l toggle Yes and No (Yes at
 * first), enter or space confirm, y/n answer directly, esc/q answer false.
 */
export function InitDialog({ onAnswer, width, height }: InitDialogProps) {
  const theme = useTheme();
  const keymap = useKeymap();
  const screen = useScreenSize(width, height);
  const [selected, setSelected] = useState(0);
  useKeys(
    (key) => {
      if (keymap.matches(key, 'confirm.yes')) onAnswer(true);
      else if (keymap.matches(key, 'confirm.no') || keymap.matches(key, 'init.cancel')) onAnswer(false);
      else if (keymap.matches(key, 'init.toggle') || keymap.matches(key, 'button.next') || keymap.matches(key, 'button.previous')) setSelected((s) => 1 - s);
      else if (keymap.matches(key, 'button.press')) onAnswer(selected === 0);
      return true;
    },
    { layer: LAYER.dialog },
  );
  const frameWidth = clamp(60, 30, screen.columns - 2);
  return (
    <DialogFrame title="Initialize Project" width={frameWidth}>
      <Text> </Text>
      <Text color={theme.text}>{INIT_EXPLANATION}</Text>
      <Text> </Text>
      <Text color={theme.text} bold>
        Would you like to initialize this project?
      </Text>
      <Text> </Text>
      <Buttons buttons={confirmButtons(keymap)} selected={selected} width={frameWidth - FRAME_HORIZONTAL_COLUMNS} />
    </DialogFrame>
  );
}
