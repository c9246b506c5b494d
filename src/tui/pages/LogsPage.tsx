/**
 * The logs page (ctrl+l): a table of the log records, newest first (Time, Level, Message), and under
 * it a pane with the selected record in full: its message and details, wrapped. ↑↓/k/j select,
 * pgup/pgdown move a page, home/end go to the newest/oldest; esc, `q` and backspace go back.
 *
 * It is a whole page but registers on {@link LAYER.dialog}: while it shows, it takes every key.
 * The selection follows the selected record (by id) when new records arrive above it.
 */
import { Box, Text } from 'ink';
import { useState } from 'react';
import { clamp, fitText, scrollTop, useScreenSize } from '../components/DialogFrame.js';
import { LAYER, useKeys } from '../input/InputProvider.js';
import { hintRow } from '../key-hints.js';
import { useKeymap } from '../keymap-context.js';
import { wrapText } from '../render/text-width.js';
import type { Theme } from '../theme.js';
import { useTheme } from '../theme-context.js';
import { formatLogTime, newestFirst, type LogEntry, type LogLevel } from './log-entry.js';

export type { LogEntry } from './log-entry.js';

export interface LogsPageProps {
  entries: readonly LogEntry[];
  onBack(): void;
  /** columns of the page; default the terminal's */
  width?: number;
  /** rows of the page; default the terminal's */
  height?: number;
}

/** Columns of the Time and Level columns, separator included. */
const TIME_COLUMNS = 9;
const LEVEL_COLUMNS = 6;

function levelColour(level: LogLevel, theme: Theme): string {
  return { debug: theme.textMuted, info: theme.info, warn: theme.warning, error: theme.error }[level];
}

/** The logs page: the table takes 60% of the rows (at least 3), the detail pane the rest. */
export function LogsPage({ entries, onBack, width, height }: LogsPageProps) {
  const theme = useTheme();
  const keymap = useKeymap();
  const screen = useScreenSize(width, height);
  const rows = newestFirst(entries);
  // title + table header + table rows + pane rule + pane
  const tableRows = Math.max(3, Math.floor((screen.rows - 3) * 0.6));
  const paneRows = Math.max(1, screen.rows - 3 - tableRows);

  const [state, setState] = useState<{ id: number | undefined; top: number }>({ id: undefined, top: 0 });
  const found = state.id === undefined ? -1 : rows.findIndex((e) => e.id === state.id);
  const selected = found >= 0 ? found : 0;
  const top = scrollTop(rows.length, selected, tableRows, state.top);
  // functional: keys that arrive in one read come before React re-renders, each moves from the last
  const moveTo = (index: (at: number) => number) =>
    setState((now) => {
      const at = Math.max(0, now.id === undefined ? -1 : rows.findIndex((e) => e.id === now.id));
      const next = clamp(index(at), 0, Math.max(0, rows.length - 1));
      return {
        id: rows[next]?.id,
        top: scrollTop(rows.length, next, tableRows, scrollTop(rows.length, at, tableRows, now.top)),
      };
    });

  useKeys(
    (key) => {
      if (keymap.matches(key, 'logs.back')) onBack();
      else if (keymap.matches(key, 'dialog.up')) moveTo((at) => at - 1);
      else if (keymap.matches(key, 'dialog.down')) moveTo((at) => at + 1);
      else if (keymap.matches(key, 'dialog.page_up')) moveTo((at) => at - tableRows);
      else if (keymap.matches(key, 'dialog.page_down')) moveTo((at) => at + tableRows);
      else if (keymap.matches(key, 'dialog.first')) moveTo(() => 0);
      else if (keymap.matches(key, 'dialog.last')) moveTo(() => rows.length - 1);
      return true;
    },
    { layer: LAYER.dialog },
  );

  const messageColumns = Math.max(1, screen.columns - TIME_COLUMNS - LEVEL_COLUMNS);
  const current = rows[selected];
  const pane = current ? fitPane(detailLines(current, screen.columns), paneRows) : [];
  return (
    <Box flexDirection="column" width={screen.columns} height={screen.rows}>
      <Text bold color={theme.primary} wrap="truncate">
        Logs{' '}
        <Text color={theme.textMuted}>{hintRow(keymap, [`(${rows.length})`, '↑↓ select', ['logs.back', 'back']])}</Text>
      </Text>
      <Text bold color={theme.textMuted} wrap="truncate">
        {'Time'.padEnd(TIME_COLUMNS)}
        {'Level'.padEnd(LEVEL_COLUMNS)}
        Message
      </Text>
      <Box flexDirection="column" height={tableRows}>
        {rows.length === 0 ? <Text color={theme.textMuted}>No log records yet</Text> : null}
        {rows.slice(top, top + tableRows).map((entry, i) => {
          const isSelected = top + i === selected;
          return (
            <Text key={entry.id} wrap="truncate" backgroundColor={isSelected ? theme.selectionBackground : undefined}>
              <Text color={theme.textMuted}>{formatLogTime(entry.time).padEnd(TIME_COLUMNS)}</Text>
              <Text color={levelColour(entry.level, theme)}>{entry.level.toUpperCase().padEnd(LEVEL_COLUMNS)}</Text>
              <Text color={isSelected ? theme.primary : theme.text} bold={isSelected}>
                {fitText(entry.message.replace(/\s*\n\s*/g, ' '), messageColumns, true)}
              </Text>
            </Text>
          );
        })}
      </Box>
      <Text color={theme.border} wrap="truncate">
        {'─'.repeat(Math.max(1, screen.columns))}
      </Text>
      {pane.map((line, i) => (
        <Text key={i} color={i === 0 && current ? levelColour(current.level, theme) : theme.text} wrap="truncate">
          {line || ' '}
        </Text>
      ))}
    </Box>
  );
}

/** The detail pane's lines for `entry`: `HH:MM:SS LEVEL #id`, the message, then the details. */
export function detailLines(entry: LogEntry, width: number): string[] {
  const lines = [
    `${formatLogTime(entry.time)} ${entry.level.toUpperCase()} #${entry.id}`,
    ...wrapText(entry.message, width),
  ];
  if (entry.details) lines.push('', ...wrapText(entry.details, width));
  return lines;
}

/** `lines` in `rows` rows: when they do not fit, the last row says how many were left out. */
function fitPane(lines: string[], rows: number): string[] {
  if (lines.length <= rows) return lines;
  const kept = lines.slice(0, Math.max(0, rows - 1));
  return [...kept, `… ${lines.length - kept.length} more lines`];
}
