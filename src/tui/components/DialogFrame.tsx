/**
 * The frame every dialog draws in: a round border in the theme's focused-border colour, a bold title
 * in the primary colour, one column of padding each side. Also the sizing helpers dialogs share.
 */
import { Box, Text, useStdout } from 'ink';
import type React from 'react';
import stringWidth from 'string-width';
import { fitLine } from '../render/text-width.js';
import { useTheme } from '../theme-context.js';

/** Columns the frame itself takes: 2 border + 2 padding. */
export const FRAME_HORIZONTAL_COLUMNS = 4;
/** Rows the frame itself takes: 2 border + the title row. */
export const FRAME_VERTICAL_ROWS = 3;

/**
 * A dialog's frame.
 * @param title shown bold in `theme.primary` on the first row; `titleRight` (e.g. "(+2 more waiting)")
 *   follows it, muted
 * @param width total columns including the border; omitted: as wide as the content
 */
export function DialogFrame({
  title,
  titleRight,
  width,
  children,
}: {
  title: string;
  titleRight?: string;
  width?: number;
  children?: React.ReactNode;
}) {
  const theme = useTheme();
  return (
    <Box
      flexDirection="column"
      borderStyle="round"
      borderColor={theme.borderFocused}
      paddingX={1}
      width={width}
      flexShrink={0}
    >
      <Box>
        <Text bold color={theme.primary} wrap="truncate">
          {title}
        </Text>
        {titleRight ? (
          <Text color={theme.textMuted} wrap="truncate">
            {' '}
            {titleRight}
          </Text>
        ) : null}
      </Box>
      {children}
    </Box>
  );
}

/** The area a dialog is centred in, in columns and rows. */
export interface ScreenSize {
  columns: number;
  rows: number;
}

/**
 * The screen area a dialog may use: the `width`/`height` props when the shell passes them, else the
 * terminal's size (`stdout.columns`/`rows`; 80×24 when the stream has none, as under a test).
 */
export function useScreenSize(width?: number, height?: number): ScreenSize {
  const { stdout } = useStdout();
  return {
    columns: width ?? (stdout.columns || 80),
    rows: height ?? (stdout.rows || 24),
  };
}

/**
 * The first row to show so that `selected` is visible in a window of `visible` rows over `count`
 * rows, moving the window as little as possible from `previousTop`.
 */
export function scrollTop(count: number, selected: number, visible: number, previousTop = 0): number {
  if (count <= visible) return 0;
  let top = Math.min(Math.max(0, previousTop), count - visible);
  if (selected < top) top = selected;
  if (selected >= top + visible) top = selected - visible + 1;
  return top;
}

/** `n` clamped to `[low, high]` (high wins when they cross). */
export function clamp(n: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, n));
}

/**
 * `text` in at most `columns` terminal columns (CJK and emoji count 2): cut with a trailing `…` when
 * too wide, padded with spaces to exactly `columns` when `pad`. ANSI colours survive the cut.
 */
export function fitText(text: string, columns: number, pad = false): string {
  if (columns <= 0) return '';
  const out = stringWidth(text) > columns ? `${fitLine(text, columns - 1)}…` : text;
  return pad ? out + ' '.repeat(Math.max(0, columns - stringWidth(out))) : out;
}
