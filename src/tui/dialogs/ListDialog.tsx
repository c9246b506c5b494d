/**
 * A framed list to choose one item from: the shape of the sessions, commands, models and themes
 * dialogs (the original's keys: ↑↓ or k/j, enter, esc; 10 rows visible, the list scrolls under them).
 */
import { Box, Text } from 'ink';
import { Fzf, type FzfResultItem } from 'fzf';
import type React from 'react';
import { useMemo, useRef, useState } from 'react';
import stringWidth from 'string-width';
import { DialogFrame, FRAME_HORIZONTAL_COLUMNS, clamp, fitText, scrollTop } from '../components/DialogFrame.js';
import { LAYER, useKeys } from '../input/InputProvider.js';
import type { Key } from '../input/keys.js';
import { useKeymap } from '../keymap-context.js';
import { useTheme } from '../theme-context.js';
import { useLatestState } from '../useLatestState.js';

/** One row of a {@link ListDialog}. */
export interface ListItem {
  id: string;
  label: string;
  /** shown muted at the row's right end, e.g. `5m ago` */
  detail?: string;
  /** marks the item in use (the current session, model, theme) with `✓` */
  current?: boolean;
}

/** What a filterable list matches the typed filter against. */
const filterText = (item: ListItem): string => `${item.label} ${item.detail ?? ''}`;

/** Where a list's selection and scroll stand, for the list whose ids joined by newlines are `listKey`. */
interface ListState {
  selected: number;
  top: number;
  listKey: string;
}

/** Rows a list shows at once (the original's dialogs: 10). */
export const LIST_VISIBLE_ROWS = 10;

export interface ListDialogProps {
  title: string;
  titleRight?: string;
  items: readonly ListItem[];
  /** index selected at first; clamped into the list */
  initialIndex?: number;
  /** total columns of the dialog, border included */
  width: number;
  visibleRows?: number;
  /** a row (or more) between the title and the list, e.g. the models dialog's provider line */
  header?: React.ReactNode;
  /** shown when `items` is empty */
  emptyText?: string;
  /**
   * Set while the items are still loading (e.g. `Loading models…`): shown in place of the empty
   * text, or under the rows already known; keys other than esc wait until it is unset and then act
   * in order on the loaded list (InputProvider's `WhileLoading`), so keys typed with the key that
   * opened the dialog are not lost on an empty list.
   */
  loading?: string;
  /** enter on an item */
  onChoose(item: ListItem, index: number): void;
  onClose(): void;
  /** rows under the list, e.g. the selected command's description (a function gets the selected item) */
  footer?: React.ReactNode | ((selected: ListItem | undefined) => React.ReactNode);
  /**
   * typing filters the list (fzf on the label and the detail): printable keys and backspace edit
   * the filter shown above the list, so k/j type letters and only the arrows move
   */
  filterable?: boolean;
  /**
   * sees every key first, with the item selected when it arrives (after the keys before it in the
   * same read); return true when it handled it
   */
  onKey?(key: Key, selected: ListItem | undefined): boolean;
  /** the selection moved to `index` by a key (not called when a new list resets it) */
  onMove?(index: number): void;
  /**
   * The items (and where they start) as the keys so far left them, for a list a key handled in
   * `onKey` can replace before React re-renders: the models dialog's ←/→ switch provider, and a ↓
   * or `g` in the same read must act on the new provider's list. Default: `items` and `initialIndex`.
   */
  latestItems?(): { items: readonly ListItem[]; initialIndex: number };
}

/**
 * The list dialog. Modal: registers on {@link LAYER.dialog} and takes every key. ↑/k and ↓/j move
 * (stopping at the ends), pgup/pgdown move a page, home/end to the ends, enter chooses, esc closes.
 * The selection resets to `initialIndex` when the items' ids change (another provider's list, or
 * a new filter).
 */
export function ListDialog(props: ListDialogProps) {
  const theme = useTheme();
  const keymap = useKeymap();
  const { width, visibleRows = LIST_VISIBLE_ROWS, filterable = false } = props;
  // the filter lives in a ref too: keys that arrive before React re-renders must see the last one
  const [filter, filterRef, setFilter] = useLatestState('');
  const finder = useMemo(
    () => (filterable ? new Fzf(props.items as ListItem[], { selector: filterText }) : undefined),
    [filterable, props.items],
  );
  /** `from` (default the items rendered) filtered by `text`. */
  const listFor = (text: string, from: readonly ListItem[] = props.items): readonly ListItem[] => {
    if (!finder || !text) return from;
    const search = from === props.items ? finder : new Fzf(from as ListItem[], { selector: filterText });
    return search.find(text).map((match: FzfResultItem<ListItem>) => match.item);
  };
  // eslint-disable-next-line react-hooks/exhaustive-deps -- listFor is new each render; what it reads is listed
  const items = useMemo<readonly ListItem[]>(() => listFor(filter), [finder, filter, props.items]);
  // the list's identity: a different list (another provider's models) starts over at initialIndex
  const keyOf = (list: readonly ListItem[]) => list.map((item) => item.id).join('\n');
  const listKey = keyOf(items);
  const start = (list: readonly ListItem[], key: string, initialIndex = props.initialIndex ?? 0): ListState => {
    const selected = clamp(initialIndex, 0, Math.max(0, list.length - 1));
    return {
      selected,
      top: scrollTop(list.length, selected, visibleRows, selected - Math.floor(visibleRows / 2)),
      listKey: key,
    };
  };
  const [state, setState] = useState(() => start(items, listKey));
  // The selection as the last key left it. Several keys can arrive in one read (`tmux send-keys
  // Down Down`, a fast typist over ssh) and InputProvider hands them to this handler back to back,
  // before React re-renders: each must move from where the previous one left the selection, not
  // from the value this render closed over.
  const latest = useRef(state);
  let view = state;
  if (state.listKey !== listKey) {
    // a new list: where keys already moved in it (typed a filter, then ↓, in one read), else the start
    view = latest.current.listKey === listKey ? latest.current : start(items, listKey);
    setState(view);
  }
  latest.current = view;
  const { selected, top } = view;
  const count = items.length;

  /** The list and selection as the keys so far left them (the filter or the items too may have changed). */
  const current = (): { list: readonly ListItem[]; at: ListState } => {
    const base = props.latestItems?.() ?? { items: props.items, initialIndex: props.initialIndex ?? 0 };
    const list =
      base.items === props.items && filterRef.current === filter ? items : listFor(filterRef.current, base.items);
    const key = list === items ? listKey : keyOf(list);
    if (latest.current.listKey !== key) latest.current = start(list, key, base.initialIndex);
    return { list, at: latest.current };
  };

  const moveTo = (index: (at: number, count: number) => number) => {
    const { list, at } = current();
    const next = clamp(index(at.selected, list.length), 0, Math.max(0, list.length - 1));
    latest.current = { selected: next, top: scrollTop(list.length, next, visibleRows, at.top), listKey: at.listKey };
    setState(latest.current);
    if (next !== at.selected) props.onMove?.(next);
  };

  useKeys(
    (key) => {
      if (props.onKey) {
        const { list, at } = current();
        if (props.onKey(key, list[at.selected])) return true;
      }
      if (filterable && key.name === 'backspace' && !key.ctrl && !key.meta) {
        setFilter([...filterRef.current].slice(0, -1).join(''));
        return true;
      }
      if (filterable && key.text !== '' && !key.ctrl && !key.meta) {
        setFilter(filterRef.current + key.text.replace(/[\r\n\t]/g, ' '));
        return true;
      }
      if (keymap.matches(key, 'dialog.close')) props.onClose();
      else if (keymap.matches(key, 'dialog.up')) moveTo((at) => at - 1);
      else if (keymap.matches(key, 'dialog.down')) moveTo((at) => at + 1);
      else if (keymap.matches(key, 'dialog.page_up')) moveTo((at) => at - visibleRows);
      else if (keymap.matches(key, 'dialog.page_down')) moveTo((at) => at + visibleRows);
      else if (keymap.matches(key, 'dialog.first')) moveTo(() => 0);
      else if (keymap.matches(key, 'dialog.last')) moveTo((_, count) => count - 1);
      else if (keymap.matches(key, 'dialog.select')) {
        const { list, at } = current();
        if (list.length > 0) props.onChoose(list[at.selected]!, at.selected);
      }
      return true;
    },
    {
      layer: LAYER.dialog,
      loading: props.loading !== undefined,
      // esc closes at once; ctrl+c is taken above every dialog (DialogHost's quit layer)
      whileLoading: (key) => (keymap.matches(key, 'dialog.close') ? 'now' : 'wait'),
    },
  );

  const inner = width - FRAME_HORIZONTAL_COLUMNS;
  const shown = items.slice(top, top + visibleRows);
  return (
    <DialogFrame title={props.title} titleRight={props.titleRight} width={width}>
      {props.header}
      {filterable ? (
        <Text wrap="truncate" color={filter ? theme.text : theme.textMuted}>
          {filter ? `> ${filter}` : '> type to filter'}
        </Text>
      ) : null}
      {count === 0 && props.loading === undefined ? (
        <Text color={theme.textMuted}>
          {filter ? 'Nothing matches' : (props.emptyText ?? 'Nothing to choose from')}
        </Text>
      ) : null}
      {top > 0 ? <Text color={theme.textMuted}>↑ more</Text> : null}
      {shown.map((item, i) => {
        const isSelected = top + i === selected;
        return (
          <Text
            key={item.id}
            wrap="truncate"
            color={isSelected ? theme.primary : theme.text}
            backgroundColor={isSelected ? theme.selectionBackground : undefined}
            bold={isSelected}
          >
            {listRow(item, inner)}
          </Text>
        );
      })}
      {top + visibleRows < count ? <Text color={theme.textMuted}>↓ more</Text> : null}
      {props.loading !== undefined ? <Text color={theme.textMuted}>{props.loading}</Text> : null}
      {typeof props.footer === 'function' ? props.footer(items[selected]) : props.footer}
    </DialogFrame>
  );
}

/**
 * One row as text, exactly `columns` wide: `✓ ` or two spaces, the label (cut with `…`), and the
 * detail right-aligned after at least two spaces (dropped when the label leaves no room for it).
 */
export function listRow(item: ListItem, columns: number): string {
  const mark = item.current ? '✓ ' : '  ';
  const room = columns - 2;
  const detail = item.detail ?? '';
  const detailWidth = stringWidth(detail);
  if (detail && room - detailWidth - 2 >= Math.min(12, stringWidth(item.label))) {
    const label = fitText(item.label, room - detailWidth - 2, true);
    return `${mark}${label}  ${detail}`;
  }
  return mark + fitText(item.label, room, true);
}

/** Props every dialog takes for its size: the screen area it is centred in (see `useScreenSize`). */
export interface DialogSizeProps {
  /** columns of the area the dialog is centred in; default the terminal's */
  width?: number;
  /** rows of that area; default the terminal's */
  height?: number;
}

/** A row of the given text, muted: hints under a list, e.g. `↑↓ select · enter choose · esc close`. */
export function HintRow({ text }: { text: string }) {
  const theme = useTheme();
  return (
    <Box marginTop={1}>
      <Text color={theme.textMuted} wrap="truncate">
        {text}
      </Text>
    </Box>
  );
}
