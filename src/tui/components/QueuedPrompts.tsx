/**
 * The queued prompts, dimmed under the message list: one line each, `queued` before
 * its first line, the newest {@link QUEUE_MAX_ROWS} when there are more. While the queue is held
 * (the person pressed esc), a line says how to send or clear it.
 *
 * Keys, at the page layer so they come before the editor's and only when the editor is empty (as
 * `isEditorEmpty` says): `queue.recall` (↑) takes the newest queued prompt back into the editor to
 * change or delete (`onRecall`); enter sends a held queue (`onRelease`). Every other key passes on.
 */
import chalk from 'chalk';
import { Box, Text } from 'ink';
import React, { memo } from 'react';
import { LAYER, useKeys } from '../input/InputProvider.js';
import { useKeymap } from '../keymap-context.js';
import { fitLine } from '../render/text-width.js';
import type { QueuedPrompt } from '../state/chat-store.js';
import { useTheme } from '../theme-context.js';

/** Queued prompts shown at most; older ones are counted on a line above. */
export const QUEUE_MAX_ROWS = 3;

export interface QueuedPromptsProps {
  queue: readonly QueuedPrompt[];
  /** the run was canceled: the queue waits for enter or esc */
  held: boolean;
  width: number;
  /** keys are handled (false while a dialog or page has them) */
  active: boolean;
  isEditorEmpty(): boolean;
  onRecall(): void;
  onRelease(): void;
}

/** The lines shown, plain text (the component colours them): see the module comment. */
export function queueLines(
  queue: readonly QueuedPrompt[],
  held: boolean,
  keys: { recall?: string; clear?: string },
): string[] {
  if (queue.length === 0) return [];
  const lines: string[] = [];
  const hidden = queue.length - QUEUE_MAX_ROWS;
  if (hidden > 0) lines.push(`… ${hidden} more queued`);
  for (const prompt of queue.slice(-QUEUE_MAX_ROWS)) {
    const first = prompt.text.split('\n', 1)[0]!.trim();
    const more = prompt.text.trim().includes('\n') ? ' …' : '';
    const images = prompt.attachments.length
      ? ` [${prompt.attachments.length} image${prompt.attachments.length === 1 ? '' : 's'}]`
      : '';
    lines.push(`queued  ${first}${more}${images}`);
  }
  // a part whose action has no key (`"none"`) is left out
  const recall = keys.recall === undefined ? [] : [`${keys.recall} edits the last`];
  const clear =
    keys.clear === undefined ? [] : [held ? `${keys.clear} clears` : `${keys.clear} ${keys.clear} cancels and clears`];
  lines.push(
    held
      ? `  held after the cancel: ${['enter sends', ...clear, ...recall].join(', ')}`
      : `  sent when the reply ends${[...recall, ...clear].map((p, i) => `${i === 0 ? '; ' : ', '}${p}`).join('')}`,
  );
  return lines;
}

/** The queue under the list; renders nothing when it is empty. */
export const QueuedPrompts = memo(function QueuedPrompts(props: QueuedPromptsProps) {
  const { queue, held, width, active, isEditorEmpty, onRecall, onRelease } = props;
  const theme = useTheme();
  const keymap = useKeymap();
  useKeys(
    (key) => {
      if (queue.length === 0 || !isEditorEmpty()) return false;
      if (keymap.matches(key, 'queue.recall')) {
        onRecall();
        return true;
      }
      if (held && key.name === 'return' && !key.ctrl && !key.meta && !key.shift) {
        onRelease();
        return true;
      }
      return false;
    },
    { layer: LAYER.page, active: active && queue.length > 0 },
  );
  const lines = queueLines(queue, held, {
    recall: keymap.hint('queue.recall'),
    clear: keymap.hint('session.interrupt'),
  });
  if (lines.length === 0) return null;
  const dim = chalk.hex(theme.textMuted);
  return (
    <Box flexDirection="column" width={width}>
      {lines.map((line, i) => (
        <Text key={i} wrap="truncate-end">
          {fitLine(dim(line), Math.max(1, width))}
        </Text>
      ))}
    </Box>
  );
});
