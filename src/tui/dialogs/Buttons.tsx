/**
 * A row of dialog buttons, one selected: the permission, quit and init dialogs' buttons. Drawing
 * only; the dialog owns the keys.
 */
import { Box, Text } from 'ink';
import stringWidth from 'string-width';
import { useTheme } from '../theme-context.js';

/** One button. */
export interface Button {
  label: string;
  /** drawn muted (it still works; the dialog decides what it does) */
  dimmed?: boolean;
}

/** Columns between two buttons. */
const GAP = 1;

/**
 * The buttons, left to right, wrapping onto more rows when they do not fit in `width` columns. The
 * selected one is drawn bold on `theme.selectionBackground` in `theme.primary`, with `›` `‹` around
 * it so the selection shows without colour too; the others between spaces.
 */
export function Buttons({ buttons, selected, width }: { buttons: readonly Button[]; selected: number; width: number }) {
  const theme = useTheme();
  return (
    <Box flexDirection="row" flexWrap="wrap" width={width}>
      {buttons.map((button, i) => {
        const isSelected = i === selected;
        const text = isSelected ? `›${button.label}‹` : ` ${button.label} `;
        return (
          <Box key={button.label} marginRight={GAP}>
            <Text
              bold={isSelected}
              color={isSelected ? theme.primary : button.dimmed ? theme.textMuted : theme.text}
              backgroundColor={isSelected ? theme.selectionBackground : undefined}
            >
              {text}
            </Text>
          </Box>
        );
      })}
    </Box>
  );
}

/** Rows {@link Buttons} takes at `width` columns (for dialogs that lay out a fixed height). */
export function buttonRows(buttons: readonly Button[], width: number): number {
  let rows = 1;
  let used = 0;
  for (const button of buttons) {
    const w = stringWidth(button.label) + 2 + GAP;
    if (used > 0 && used + w - GAP > width) {
      rows += 1;
      used = 0;
    }
    used += w;
  }
  return rows;
}
