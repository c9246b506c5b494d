/**
 * "Quit opencode?" (ctrl+c, on the chat page or over any dialog). `y` or ctrl+c again quits, `n` or
 * esc closes, ←/→/tab move between Yes and No, enter or space press the selected one. No is selected
 * at first, so a stray enter does not quit (the original's default too).
 */
import { Text } from 'ink';
import { DialogFrame } from '../components/DialogFrame.js';
import { LAYER, useKeys } from '../input/InputProvider.js';
import { confirmButtons } from '../key-hints.js';
import { useKeymap } from '../keymap-context.js';
import { useTheme } from '../theme-context.js';
import { useLatestState } from '../useLatestState.js';
import { Buttons } from './Buttons.js';

export interface QuitDialogProps {
  onQuit(): void;
  onClose(): void;
}

const WIDTH = 30;

/** The quit dialog: 30 columns. Modal. */
export function QuitDialog({ onQuit, onClose }: QuitDialogProps) {
  const theme = useTheme();
  const keymap = useKeymap();
  // the button as the last key left it (tab and enter in one read reach the handler before a re-render)
  const [selected, selectedRef, setSelected] = useLatestState(1);
  useKeys(
    (key) => {
      if (keymap.matches(key, 'confirm.yes') || keymap.matches(key, 'app.quit')) onQuit();
      else if (keymap.matches(key, 'confirm.no') || keymap.matches(key, 'dialog.close')) onClose();
      else if (keymap.matches(key, 'button.next') || keymap.matches(key, 'button.previous'))
        setSelected(1 - selectedRef.current);
      else if (keymap.matches(key, 'button.press')) (selectedRef.current === 0 ? onQuit : onClose)();
      return true;
    },
    { layer: LAYER.dialog },
  );
  return (
    <DialogFrame title="Quit" width={WIDTH}>
      <Text color={theme.text}>Quit opencode?</Text>
      <Text> </Text>
      <Buttons buttons={confirmButtons(keymap)} selected={selected} width={WIDTH - 4} />
    </DialogFrame>
  );
}
