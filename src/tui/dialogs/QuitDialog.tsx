/**
 * "Quit opencode?" (ctrl+c). `y` quits, `n` or esc closes, ←/→/tab move between Yes and No, enter
 * or space press the selected one. No is selected at first, so a stray enter does not quit (the
 * original's default too).
 */
import { Text } from 'ink';
import { useState } from 'react';
import { DialogFrame } from '../components/DialogFrame.js';
import { LAYER, useKeys } from '../input/InputProvider.js';
import { matches } from '../keybindings.js';
import { useTheme } from '../theme-context.js';
import { Buttons } from './Buttons.js';

export interface QuitDialogProps {
  onQuit(): void;
  onClose(): void;
}

const BUTTONS = [{ label: 'Yes (y)' }, { label: 'No (n)' }];
const WIDTH = 30;

/** The quit dialog: 30 columns. Modal. */
export function QuitDialog({ onQuit, onClose }: QuitDialogProps) {
  const theme = useTheme();
  const [selected, setSelected] = useState(1);
  useKeys(
    (key) => {
      if (matches(key, 'confirm_yes')) onQuit();
      else if (matches(key, 'confirm_no') || matches(key, 'dialog_close')) onClose();
      else if (matches(key, 'button_next') || matches(key, 'button_previous')) setSelected((s) => 1 - s);
      else if (matches(key, 'button_press')) (selected === 0 ? onQuit : onClose)();
      return true;
    },
    { layer: LAYER.dialog },
  );
  return (
    <DialogFrame title="Quit" width={WIDTH}>
      <Text color={theme.text}>Quit opencode?</Text>
      <Text> </Text>
      <Buttons buttons={BUTTONS} selected={selected} width={WIDTH - 4} />
    </DialogFrame>
  );
}
