/**
 * "Command Arguments": one field per placeholder of a custom command (as in the original). Typed text
 * and pastes go into the focused field; tab/↓ and shift+tab/↑ move between fields (wrapping round);
 * enter submits every field's value; esc cancels.
 */
import { Box, Text } from 'ink';
import { useState } from 'react';
import stringWidth from 'string-width';
import { DialogFrame, FRAME_HORIZONTAL_COLUMNS, clamp, useScreenSize } from '../components/DialogFrame.js';
import { LAYER, useKeys, usePaste } from '../input/InputProvider.js';
import { hintRow } from '../key-hints.js';
import { useKeymap } from '../keymap-context.js';
import { fitLine } from '../render/text-width.js';
import { useTheme } from '../theme-context.js';
import { useLatestState } from '../useLatestState.js';
import type { DialogSizeProps } from './ListDialog.js';

export interface ArgumentsDialogProps extends DialogSizeProps {
  /** the command's title, shown after the dialog's, e.g. `user:git:commit` */
  title?: string;
  /** the placeholder names, e.g. `['ISSUE', 'BRANCH']`, in the order asked */
  names: readonly string[];
  /** every name → its value (possibly empty) */
  onSubmit(values: Record<string, string>): void;
  onClose(): void;
}

/**
 * The arguments dialog: 60 columns (less on a narrow screen). Fields are one line: a newline typed
 * or pasted becomes a space (enter submits), and a value wider than the field shows its end. Backspace
 * deletes the last character; ctrl+u clears the field.
 */
export function ArgumentsDialog({ title, names, onSubmit, onClose, width, height }: ArgumentsDialogProps) {
  const theme = useTheme();
  const keymap = useKeymap();
  const screen = useScreenSize(width, height);
  const [values, setValues] = useState<string[]>(() => names.map(() => ''));
  // the field in focus as the last key left it: tab then text in one read types into the next field
  const [focused, focusedRef, setFocusedAt] = useLatestState(0);
  const setFocused = (change: (at: number) => number) => setFocusedAt(change(focusedRef.current));
  const count = names.length;

  const edit = (change: (value: string) => string) => {
    const at = focusedRef.current;
    setValues((old) => old.map((value, i) => (i === at ? change(value) : value)));
  };

  useKeys(
    (key) => {
      if (keymap.matches(key, 'dialog.close')) onClose();
      else if (keymap.matches(key, 'dialog.select'))
        onSubmit(Object.fromEntries(names.map((name, i) => [name, values[i] ?? ''])));
      else if (keymap.matches(key, 'field.next')) setFocused((f) => (f + 1) % Math.max(1, count));
      else if (keymap.matches(key, 'field.previous')) setFocused((f) => (f - 1 + count) % Math.max(1, count));
      else if (key.name === 'backspace' && !key.ctrl && !key.meta) edit((v) => Array.from(v).slice(0, -1).join(''));
      else if (key.ctrl && key.name === 'u') edit(() => '');
      else if (key.text) edit((v) => v + oneLine(key.text));
      return true;
    },
    { layer: LAYER.dialog },
  );
  usePaste((text) => edit((v) => v + oneLine(text)), { layer: LAYER.dialog });

  const frameWidth = clamp(60, 30, screen.columns - 2);
  const inner = frameWidth - FRAME_HORIZONTAL_COLUMNS;
  return (
    <DialogFrame title="Command Arguments" titleRight={title} width={frameWidth}>
      <Text color={theme.textMuted}>Fill in the command&apos;s placeholders.</Text>
      {names.map((name, i) => {
        const isFocused = i === focused;
        return (
          <Box key={name} flexDirection="column" marginTop={1}>
            <Text color={isFocused ? theme.primary : theme.text} bold={isFocused}>
              {name}
            </Text>
            <Box borderStyle="single" borderColor={isFocused ? theme.borderFocused : theme.border} paddingX={1}>
              <Text color={theme.text}>
                {fieldText(values[i] ?? '', inner - 4 - 1)}
                {isFocused ? <Text inverse> </Text> : ' '}
              </Text>
            </Box>
          </Box>
        );
      })}
      <Box marginTop={1}>
        <Text color={theme.textMuted} wrap="truncate">
          {hintRow(keymap, [
            ['field.next', 'next field'],
            ['dialog.select', 'run'],
            ['dialog.close', 'cancel'],
          ])}
        </Text>
      </Box>
    </DialogFrame>
  );
}

function oneLine(text: string): string {
  return text.replace(/\r\n?|\n/g, ' ');
}

/** The end of `value` that fits in `columns`, with `…` in front when cut. */
function fieldText(value: string, columns: number): string {
  if (stringWidth(value) <= columns) return value;
  const chars = Array.from(value);
  let start = 0;
  while (start < chars.length && stringWidth(chars.slice(start).join('')) > columns - 1) start++;
  return `…${fitLine(chars.slice(start).join(''), columns - 1)}`;
}
