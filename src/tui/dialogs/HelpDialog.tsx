/**
 * "Help" (ctrl+/ or ctrl+h, or `?` while the agent works): every key binding, grouped by where it
 * applies, drawn from the one table in `keybindings.ts` with the keys in effect (the config's
 * `keybindings` applied; an unbound action shows `none`). ↑↓/j/k/pgup/pgdown scroll when it does
 * not fit; esc, `?` and the help keys close it.
 */
import { Text } from 'ink';
import { useState } from 'react';
import stringWidth from 'string-width';
import {
  DialogFrame,
  FRAME_HORIZONTAL_COLUMNS,
  FRAME_VERTICAL_ROWS,
  clamp,
  fitText,
  useScreenSize,
} from '../components/DialogFrame.js';
import { LAYER, useKeys } from '../input/InputProvider.js';
import { BINDINGS, BINDING_SCOPES, formatKeys, type ActionName, type Binding } from '../keybindings.js';
import { DEFAULT_KEYMAP, type Keymap } from '../keymap.js';
import { useKeymap } from '../keymap-context.js';
import { useTheme } from '../theme-context.js';
import type { DialogSizeProps } from './ListDialog.js';

export interface HelpDialogProps extends DialogSizeProps {
  onClose(): void;
  /** the table to list; default {@link BINDINGS} (tests may pass a smaller one) */
  bindings?: readonly Binding[];
}

/** One row of the help: a scope heading, a binding, or a blank line between groups. */
type HelpRow =
  { kind: 'heading'; text: string } | { kind: 'binding'; keys: string; description: string } | { kind: 'blank' };

/**
 * The rows of the help for `bindings`: each scope's heading, then its bindings in table order, with
 * the keys `keymap` gives each action.
 */
export function helpRows(bindings: readonly Binding[], keymap: Keymap = DEFAULT_KEYMAP): HelpRow[] {
  const rows: HelpRow[] = [];
  for (const { scope, title } of BINDING_SCOPES) {
    const group = bindings.filter((b) => b.scope === scope);
    if (group.length === 0) continue;
    if (rows.length > 0) rows.push({ kind: 'blank' });
    rows.push({ kind: 'heading', text: title });
    for (const b of group)
      rows.push({ kind: 'binding', keys: formatKeys(keymap.keys(b.action as ActionName)), description: b.description });
  }
  return rows;
}

/** Keys column at most: wide enough for most key lists; longer ones are cut. */
const KEYS_COLUMNS = 28;

/**
 * The help dialog: as wide as its longest row needs (the keys column as wide as the longest keys,
 * up to {@link KEYS_COLUMNS}), at most the screen's width, so a description is cut only when the
 * screen is too narrow for it; as tall as the screen allows.
 */
export function HelpDialog({ onClose, bindings = BINDINGS, width, height }: HelpDialogProps) {
  const theme = useTheme();
  const keymap = useKeymap();
  const screen = useScreenSize(width, height);
  const rows = helpRows(bindings, keymap);
  const widest = (pick: (row: Extract<HelpRow, { kind: 'binding' }>) => string) =>
    Math.max(0, ...rows.map((row) => (row.kind === 'binding' ? stringWidth(pick(row)) : 0)));
  const keysWanted = Math.min(KEYS_COLUMNS, widest((row) => row.keys) + 1);
  const frameWidth = clamp(
    FRAME_HORIZONTAL_COLUMNS + keysWanted + widest((row) => row.description),
    40,
    screen.columns - 2,
  );
  const inner = frameWidth - FRAME_HORIZONTAL_COLUMNS;
  const area = Math.max(3, Math.min(rows.length, screen.rows - FRAME_VERTICAL_ROWS - 2));
  const scrolls = rows.length > area;
  const body = scrolls ? Math.max(1, area - 2) : rows.length;
  const maxOffset = Math.max(0, rows.length - body);
  const [offsetState, setOffset] = useState(0);
  const offset = clamp(offsetState, 0, maxOffset);
  // functional: keys that arrive in one read come before React re-renders, each moves from the last
  const scrollTo = (next: (at: number) => number) =>
    setOffset((at) => clamp(next(clamp(at, 0, maxOffset)), 0, maxOffset));

  useKeys(
    (key) => {
      if (
        keymap.matches(key, 'dialog.close') ||
        keymap.matches(key, 'app.help') ||
        keymap.matches(key, 'app.help_busy')
      )
        onClose();
      else if (keymap.matches(key, 'dialog.up')) scrollTo((at) => at - 1);
      else if (keymap.matches(key, 'dialog.down')) scrollTo((at) => at + 1);
      else if (keymap.matches(key, 'dialog.page_up')) scrollTo((at) => at - body);
      else if (keymap.matches(key, 'dialog.page_down')) scrollTo((at) => at + body);
      else if (keymap.matches(key, 'dialog.first')) scrollTo(() => 0);
      else if (keymap.matches(key, 'dialog.last')) scrollTo(() => maxOffset);
      return true;
    },
    { layer: LAYER.dialog },
  );

  const keysColumns = Math.min(keysWanted, Math.floor(inner / 2));
  return (
    <DialogFrame title="Keyboard Shortcuts" width={frameWidth}>
      {scrolls ? <Text color={theme.textMuted}>{offset > 0 ? '↑ more' : ' '}</Text> : null}
      {rows.slice(offset, offset + body).map((row, i) => {
        const key = offset + i;
        if (row.kind === 'blank') return <Text key={key}> </Text>;
        if (row.kind === 'heading')
          return (
            <Text key={key} bold color={theme.secondary}>
              {row.text}
            </Text>
          );
        return (
          <Text key={key} wrap="truncate">
            <Text color={theme.accent}>{fitText(row.keys, keysColumns - 1, true)} </Text>
            <Text color={theme.text}>{fitText(row.description, inner - keysColumns)}</Text>
          </Text>
        );
      })}
      {scrolls ? <Text color={theme.textMuted}>{offset < maxOffset ? '↓ more' : ' '}</Text> : null}
    </DialogFrame>
  );
}
