/**
 * The pager: one tool result, whole, on its own page: a title line (the call, as the
 * list names it, and the position), then the text wrapped to the width. The text comes from the
 * database (the list holds results cut), and is wrapped only where it is shown (lazy-rows.ts), so a
 * result of megabytes opens at once.
 *
 * Keys (the list keys of keybindings.ts): ↑↓/k/j a line, pgup/pgdown a page, home/end the start and
 * the end; `pager.back` (esc, q) goes back to the chat. Like the logs page it registers on
 * {@link LAYER.dialog}: while it shows, it takes every key.
 */
import { Box, Text } from 'ink';
import { useMemo, useState } from 'react';
import { clamp, useScreenSize } from '../components/DialogFrame.js';
import { LAYER, useKeys } from '../input/InputProvider.js';
import { useKeymap } from '../keymap-context.js';
import type { ToolCallPart, ToolResultPart } from '../../message.js';
import { LazyWrappedText } from '../render/lazy-rows.js';
import { toolKeyParam, toolTitle } from '../render/tool-view.js';
import { viewedText } from '../render/tool-lines.js';
import { normalizeText } from '../render/text-width.js';
import { useTheme } from '../theme-context.js';

export interface PagerPageProps {
  /** what is shown, e.g. `Bash  npm test` */
  title: string;
  /** the whole text */
  text: string;
  onBack(): void;
  /** columns of the page; default the terminal's */
  width?: number;
  /** rows of the page; default the terminal's */
  height?: number;
}

/** `lines 1–38 of 2,000` */
export function pagerPosition(top: number, shown: number, total: number): string {
  if (total === 0) return 'empty';
  const first = Math.min(total, top + 1);
  const last = Math.min(total, top + shown);
  return `lines ${first.toLocaleString('en-US')}–${last.toLocaleString('en-US')} of ${total.toLocaleString('en-US')}`;
}

/** The pager page; see the module comment. */
export function PagerPage({ title, text, onBack, width, height }: PagerPageProps) {
  const theme = useTheme();
  const keymap = useKeymap();
  const screen = useScreenSize(width, height);
  const bodyRows = Math.max(1, screen.rows - 1);
  const rows = useMemo(
    () => new LazyWrappedText(normalizeText(text).replace(/\n+$/, ''), Math.max(1, screen.columns)),
    [text, screen.columns],
  );
  const lastTop = Math.max(0, rows.length - bodyRows);
  const [top, setTop] = useState(0);
  const shownTop = clamp(top, 0, lastTop);
  // functional: keys that arrive in one read come before React re-renders, each moves from the last
  const moveTo = (next: (at: number) => number) => setTop((at) => clamp(next(clamp(at, 0, lastTop)), 0, lastTop));

  useKeys(
    (key) => {
      if (keymap.matches(key, 'pager.back')) onBack();
      else if (keymap.matches(key, 'dialog.up')) moveTo((at) => at - 1);
      else if (keymap.matches(key, 'dialog.down')) moveTo((at) => at + 1);
      else if (keymap.matches(key, 'dialog.page_up')) moveTo((at) => at - bodyRows);
      else if (keymap.matches(key, 'dialog.page_down') || key.name === 'space') moveTo((at) => at + bodyRows);
      else if (keymap.matches(key, 'dialog.first')) moveTo(() => 0);
      else if (keymap.matches(key, 'dialog.last')) moveTo(() => lastTop);
      return true;
    },
    { layer: LAYER.dialog },
  );

  const lines = rows.slice(shownTop, shownTop + bodyRows);
  const back = keymap.hint('pager.back');
  return (
    <Box flexDirection="column" width={screen.columns} height={screen.rows}>
      <Text bold color={theme.primary} wrap="truncate">
        {title}{' '}
        <Text
          color={theme.textMuted}
        >{`· ${pagerPosition(shownTop, lines.length, rows.length)} · ↑↓ pgup pgdown scroll${back === undefined ? '' : ` · ${back} back`}`}</Text>
      </Text>
      {lines.map((line, i) => (
        <Text key={i} color={theme.text} wrap="truncate">
          {line || ' '}
        </Text>
      ))}
    </Box>
  );
}

/**
 * The pager's title and text for a tool call's stored result: `Bash  npm test` and its output; for an
 * edit, write or patch, the unified diff it made (its output for the model is one line); for a view,
 * the file's text without the `<file>` wrapper and line numbers the model gets (as the list shows it).
 */
export function pagerContent(
  call: ToolCallPart | undefined,
  result: ToolResultPart,
  cwd?: string,
): { title: string; text: string } {
  const view = {
    call: call ?? { type: 'tool_call' as const, id: result.toolCallId, name: result.name, input: '', finished: true },
  };
  const param = toolKeyParam(view, cwd);
  const diff = result.metadata?.diff;
  const viewed = result.metadata?.content;
  const text =
    DIFF_TOOLS.has(view.call.name) && typeof diff === 'string' && diff !== ''
      ? diff
      : view.call.name === 'view' && !result.isError
        ? typeof viewed === 'string'
          ? viewed
          : viewedText(result.content)
        : result.content;
  return { title: `${toolTitle(view)}${param ? `  ${param}` : ''}`, text };
}

/** Tools whose result the pager shows as their diff (as the list does, tool-lines.ts). */
const DIFF_TOOLS = new Set(['edit', 'write', 'patch']);
