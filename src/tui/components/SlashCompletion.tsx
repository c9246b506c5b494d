/**
 * The slash list: `/` at the start of the input lists the commands (commands.ts),
 * filtered by what follows it as the person types (fzf, as the `@` completion), drawn above the
 * editor, 10 rows at most with the selected one kept in view; when more match, the last row says how
 * many are above and below.
 *
 * Keys, on {@link LAYER.popup} while shown (the file completion's actions, `completion.*`): ↑/↓
 * move, enter runs the selected command, tab puts its name in the input, esc closes, space closes
 * (and still types the space: `/etc/hosts is …` is a prompt). With no match, enter goes on to the
 * editor, which sends the text as a prompt.
 */
import { Box, Text } from 'ink';
import { Fzf, type FzfResultItem } from 'fzf';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import stringWidth from 'string-width';
import type { CommandItem } from '../commands.js';
import { LAYER, useKeys } from '../input/InputProvider.js';
import { useKeymap } from '../keymap-context.js';
import { useTheme } from '../theme-context.js';
import { useLatestState } from '../useLatestState.js';
import { fitText } from './DialogFrame.js';
import { COMPLETION_ROWS, completionWhileLoading } from './FileCompletion.js';

export interface SlashCompletionProps {
  /** what follows the `/` */
  query: string;
  /** the commands; called once when the list opens */
  listCommands: () => Promise<readonly CommandItem[]>;
  /** enter on a command */
  onRun: (id: string) => void;
  /** tab on a command: its name (without the `/`) */
  onComplete: (name: string) => void;
  /** esc or space */
  onClose: () => void;
  /** columns the list may use */
  width: number;
  /** takes keys (default true) */
  active?: boolean;
}

const byName = (c: CommandItem) => c.name;

/** The list; see the module comment. */
export function SlashCompletion({
  query,
  listCommands,
  onRun,
  onComplete,
  onClose,
  width,
  active = true,
}: SlashCompletionProps) {
  const theme = useTheme();
  const keymap = useKeymap();
  const [commands, setCommands] = useState<readonly CommandItem[] | undefined>(undefined);
  // kept in a ref too: keys that arrive before React re-renders must see the last move
  const [selected, selectedRef, select] = useLatestState(0);
  const lastQuery = useRef(query);
  if (lastQuery.current !== query) {
    // a new filter starts at its first row; the rendered state too, else the next move to the row
    // selected before would change no state and never be drawn
    lastQuery.current = query;
    selectedRef.current = 0;
    if (selected !== 0) select(0);
  }

  useEffect(() => {
    let live = true;
    listCommands().then(
      (list) => live && setCommands(list),
      () => live && setCommands([]),
    );
    return () => {
      live = false;
    };
  }, [listCommands]);

  const finder = useMemo(
    () => (commands ? new Fzf(commands as CommandItem[], { selector: byName }) : undefined),
    [commands],
  );
  const matches = useMemo<FzfResultItem<CommandItem>[]>(() => finder?.find(query) ?? [], [finder, query]);
  const current = Math.min(selectedRef.current, Math.max(0, matches.length - 1));

  useKeys(
    (key) => {
      const at = Math.min(selectedRef.current, Math.max(0, matches.length - 1));
      const up = keymap.matches(key, 'completion.up');
      if (up || keymap.matches(key, 'completion.down')) {
        if (matches.length > 0) select((at + (up ? -1 : 1) + matches.length) % matches.length);
        return true;
      }
      if (keymap.matches(key, 'completion.select')) {
        const choice = matches[at]?.item;
        if (choice) {
          if (key.name === 'tab') onComplete(choice.name);
          else onRun(choice.id);
          return true;
        }
        if (key.name === 'tab') {
          onClose();
          return true;
        }
        return false; // nothing matches: enter sends the text
      }
      if (keymap.matches(key, 'completion.close')) {
        // space closes the list and is typed too
        onClose();
        return key.name !== 'space';
      }
      return false;
    },
    {
      layer: LAYER.popup,
      active,
      loading: commands === undefined,
      whileLoading: (key) => completionWhileLoading(keymap, key),
    },
  );

  const inner = Math.max(4, width - 4);
  let body: ReactNode;
  if (!commands) body = <Text color={theme.textMuted}>Loading commands…</Text>;
  else if (matches.length === 0)
    body = <Text color={theme.textMuted}>No matching commands (enter sends the text)</Text>;
  else {
    // more than fit: the last row says how many are above and below (the list's height stays the same)
    const overflow = matches.length > COMPLETION_ROWS;
    const rows = overflow ? COMPLETION_ROWS - 1 : COMPLETION_ROWS;
    const top = Math.max(0, Math.min(current - rows + 1, matches.length - rows));
    const shown = matches.slice(top, top + rows);
    const nameColumns = Math.min(
      Math.floor(inner / 2),
      Math.max(...shown.map((m) => stringWidth(m.item.name) + 1)) + 2,
    );
    const lines = shown.map((m, i) => {
      const selected = top + i === current;
      const name = fitText(`/${m.item.name}`, nameColumns, true);
      return (
        <Text
          key={m.item.id}
          wrap="truncate-end"
          color={selected ? theme.primary : theme.text}
          backgroundColor={selected ? theme.selectionBackground : undefined}
        >
          {selected ? '▸ ' : '  '}
          <Text bold={selected}>{name}</Text>
          <Text color={theme.textMuted}>{fitText(m.item.description, Math.max(0, inner - nameColumns - 2), true)}</Text>
        </Text>
      );
    });
    const below = matches.length - top - shown.length;
    body = overflow
      ? [
          ...lines,
          <Text key="more" color={theme.textMuted}>
            {moreLine(top, below)}
          </Text>,
        ]
      : lines;
  }
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.border} paddingX={1} width={Math.max(8, width)}>
      {body}
    </Box>
  );
}

/** The list's last row when not every command fits, e.g. `↑ 2 more  ↓ 5 more`. */
export function moreLine(above: number, below: number): string {
  return [above > 0 ? `↑ ${above} more` : '', below > 0 ? `↓ ${below} more` : ''].filter(Boolean).join('  ');
}
