/**
 * The message list: a viewport over the session's items. Only the visible lines are laid out;
 * each item's lines come from the line cache (rendered once per version and width; a huge item's rows
 * are cut from its text only when shown, render/lazy-rows.ts). Scrolling
 * (pgup/pgdown, ctrl+alt+u/ctrl+d half a page) anchors the view; otherwise it follows
 * the bottom.
 *
 * Long tool results: `messages.expand` expands or collapses, and `messages.pager` opens
 * whole, the newest tool result on screen that is cut (or expanded): the list finds it among the
 * visible items, the App does the rest (`onResultKey`).
 */
import chalk from 'chalk';
import { Box, Text } from 'ink';
import React, { memo, useEffect, useMemo, useRef, useState } from 'react';
import { LAYER, useKeys } from '../input/InputProvider.js';
import { useKeymap } from '../keymap-context.js';
import { LineCache } from '../render/line-cache.js';
import { concatRows, type Rows } from '../render/rows.js';
import { isExpandable } from '../render/tool-lines.js';
import type { ChatItem } from '../state/chat-item.js';
import { bottomWindow, lastVisibleIndex, moveDown, moveUp, windowFrom, type ListPosition } from '../state/viewport.js';
import type { Theme } from '../theme.js';
import { useTheme } from '../theme-context.js';

export interface MessageListProps {
  items: ChatItem[];
  /** columns for the text */
  width: number;
  /** rows of the viewport */
  height: number;
  /** the view follows the bottom again when this changes (another session, a prompt sent) */
  resetKey?: string;
  showThinking: boolean;
  cwd: string;
  /** handles scroll keys (false while a dialog or page has them) */
  active: boolean;
  /** one cache for the app's life: survives re-mounts */
  cache: LineCache;
  /** bumped when cached lines went stale (the code grammars loaded): lines are drawn again */
  epoch?: number;
  /**
   * `messages.expand` (`toggle`) or `messages.pager` (`pager`) was pressed: the tool call whose result
   * it is for, or undefined when no cut result is on screen
   */
  onResultKey?(action: 'toggle' | 'pager', toolCallId: string | undefined): void;
}

/**
 * The newest tool call among items `first`…`last` whose result is cut or expanded (what the expand
 * and pager keys act on), or undefined.
 */
export function newestExpandableCall(
  items: readonly ChatItem[],
  first: number,
  last: number,
  options: { width: number; cwd?: string },
  theme: Theme,
): string | undefined {
  for (let i = Math.min(last, items.length - 1); i >= Math.max(0, first); i--) {
    const tools = items[i]!.tools;
    for (let t = tools.length - 1; t >= 0; t--) if (isExpandable(tools[t]!, options, theme)) return tools[t]!.call.id;
  }
  return undefined;
}

/** Shows the visible part of the list. */
export const MessageList = memo(function MessageList(props: MessageListProps) {
  const { items, width, height, showThinking, cwd, cache, active, resetKey, epoch, onResultKey } = props;
  const theme = useTheme();
  const keymap = useKeymap();
  // the collapsed thinking line names the key in effect ('' when unbound: no hint)
  const thinkingKey = keymap.hint('messages.toggle_thinking') ?? '';
  const [anchor, setAnchor] = useState<ListPosition | null>(null);
  const lastReset = useRef(resetKey);
  if (lastReset.current !== resetKey) {
    lastReset.current = resetKey;
    if (anchor) setAnchor(null);
  }

  const linesOf = useMemo(() => {
    const memo = new Map<number, Rows>();
    return (index: number): Rows => {
      let lines = memo.get(index);
      if (!lines) {
        lines = concatRows(cache.get(items[index]!, { width, showThinking, cwd, thinkingKey }, theme), ['']);
        memo.set(index, lines);
      }
      return lines;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- epoch: the cache was cleared
  }, [items, width, showThinking, cwd, theme, cache, epoch, thinkingKey]);

  const view = useMemo(
    () => (anchor ? windowFrom(anchor, items.length, linesOf, height) : bottomWindow(items.length, linesOf, height)),
    [anchor, items.length, linesOf, height],
  );

  // scrolled back down to the end: follow the bottom again
  useEffect(() => {
    if (anchor && view.atBottom && view.lines.length < height) setAnchor(null);
  }, [anchor, view, height]);

  useKeys(
    (key) => {
      const page = Math.max(1, height - 2);
      const half = Math.max(1, Math.floor(height / 2));
      let up: number;
      if (keymap.matches(key, 'messages.page_up')) up = page;
      else if (keymap.matches(key, 'messages.half_page_up')) up = half;
      else if (keymap.matches(key, 'messages.page_down')) up = -page;
      else if (keymap.matches(key, 'messages.half_page_down')) up = -half;
      else if (onResultKey && (keymap.matches(key, 'messages.expand') || keymap.matches(key, 'messages.pager'))) {
        const last = lastVisibleIndex(view.top, items.length, linesOf, height);
        const target = newestExpandableCall(items, view.top.index, last, { width, cwd }, theme);
        onResultKey(keymap.matches(key, 'messages.expand') ? 'toggle' : 'pager', target);
        return true;
      } else return false;
      if (items.length === 0) return true;
      const top = anchor ?? view.top;
      if (up > 0) {
        setAnchor(moveUp(top, up, linesOf));
      } else {
        const next = moveDown(top, -up, items.length, linesOf);
        setAnchor(windowFrom(next, items.length, linesOf, height).atBottom ? null : next);
      }
      return true;
    },
    { layer: LAYER.page, active },
  );

  const lines = view.lines.slice();
  if (anchor && !view.atBottom && lines.length === height && height > 1) {
    // the keys in effect; none when both are unbound
    const keys = [keymap.hint('messages.page_down'), keymap.hint('messages.half_page_down')].filter(
      (k) => k !== undefined,
    );
    lines[height - 1] = chalk.hex(theme.textMuted)(`  ↓ more below${keys.length ? `: ${keys.join(' / ')}` : ''}`);
  }
  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden">
      {lines.map((line, i) => (
        <Text key={i} wrap="truncate-end">
          {line || ' '}
        </Text>
      ))}
    </Box>
  );
});
