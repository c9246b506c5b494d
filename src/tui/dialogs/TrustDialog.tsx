/**
 * "Trust this project?": shown at start when the project would run its own code (its plugins and
 * tool files under `.opencode/`, the MCP and language servers and shell its `.opencode.json` names)
 * and the person has not trusted it. Lists each thing; "Trust this project" remembers the answer and
 * starts them, "Not now" (also esc) runs this session without them. "Not now" is selected at first,
 * so a stray enter runs nothing of the project's.
 */
import { Text } from 'ink';
import {
  DialogFrame,
  FRAME_HORIZONTAL_COLUMNS,
  FRAME_VERTICAL_ROWS,
  clamp,
  useScreenSize,
} from '../components/DialogFrame.js';
import { LAYER, useKeys } from '../input/InputProvider.js';
import { useKeymap } from '../keymap-context.js';
import { fitLine, wrapText } from '../render/text-width.js';
import type { ProjectCodeView } from '../state/services.js';
import { useTheme } from '../theme-context.js';
import { useLatestState } from '../useLatestState.js';
import { Buttons } from './Buttons.js';
import type { DialogSizeProps } from './ListDialog.js';

export interface TrustDialogProps extends DialogSizeProps {
  /** what the project would run */
  items: readonly ProjectCodeView[];
  /** true: trust the project and start its code; false: not now */
  onAnswer(trust: boolean): void;
}

/** The text above the list. */
export const TRUST_INTRO = 'This project would run its own code on your computer as soon as opencode starts:';
/** The text below the list. */
export const TRUST_ADVICE = 'Trust it only if you trust where it comes from. Not now runs this session without it.';
/** The buttons, left to right. */
export const TRUST_BUTTONS = [{ label: 'Trust this project' }, { label: 'Not now' }] as const;

/** One item as listed, e.g. `MCP server github: npx -y github-mcp`. */
export function trustItemLine(item: ProjectCodeView): string {
  return `${item.kind} ${item.name}${item.detail ? `: ${item.detail}` : ''}`;
}

/** The trust dialog: 100 columns (less on a narrow screen); the list is cut to the screen's height. */
export function TrustDialog({ items, onAnswer, width, height }: TrustDialogProps) {
  const theme = useTheme();
  const keymap = useKeymap();
  const screen = useScreenSize(width, height);
  // the button as the last key left it (tab and enter in one read reach the handler before a re-render)
  const [selected, selectedRef, setSelected] = useLatestState(1);
  useKeys(
    (key) => {
      if (keymap.matches(key, 'dialog.close')) onAnswer(false);
      else if (keymap.matches(key, 'button.next') || keymap.matches(key, 'button.previous'))
        setSelected(1 - selectedRef.current);
      else if (keymap.matches(key, 'button.press')) onAnswer(selectedRef.current === 0);
      return true;
    },
    { layer: LAYER.dialog },
  );
  // wide enough for most command lines: each is shown whole (wrapped), since it is what the person trusts
  const frameWidth = clamp(100, 30, screen.columns - 2);
  const inner = frameWidth - FRAME_HORIZONTAL_COLUMNS;
  const intro = wrapText(TRUST_INTRO, inner);
  const advice = wrapText(TRUST_ADVICE, inner);
  // rows: frame, intro, blank, list, blank, advice, blank, buttons
  const listRows = Math.max(1, screen.rows - FRAME_VERTICAL_ROWS - intro.length - advice.length - 4);
  const shown: string[] = [];
  for (const [index, item] of items.entries()) {
    const rows = wrapText(trustItemLine(item), inner - 2).map((row, i) => `${i === 0 ? '•' : ' '} ${row}`);
    if (shown.length + rows.length > listRows - (index < items.length - 1 ? 1 : 0)) {
      shown.push(`… and ${items.length - index} more`);
      break;
    }
    shown.push(...rows);
  }
  return (
    <DialogFrame title="Trust this project?" width={frameWidth}>
      {intro.map((line, i) => (
        <Text key={`i${i}`} color={theme.text} wrap="truncate">
          {line}
        </Text>
      ))}
      <Text> </Text>
      {shown.map((line, i) => (
        <Text key={`l${i}`} color={theme.warning} wrap="truncate">
          {fitLine(line, inner)}
        </Text>
      ))}
      <Text> </Text>
      {advice.map((line, i) => (
        <Text key={`a${i}`} color={theme.textMuted} wrap="truncate">
          {line}
        </Text>
      ))}
      <Text> </Text>
      <Buttons buttons={TRUST_BUTTONS} selected={selected} width={inner} />
    </DialogFrame>
  );
}
