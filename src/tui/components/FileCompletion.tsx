/**
 * The `@` completion popup (the original's file and folder completion, fuzzy, from rg): the project's
 * files and folders matching what follows the `@`, at most 10 rows, drawn above the editor.
 *
 * Keys, on {@link LAYER.popup} while shown: ↑/↓ move the selection, tab/enter choose it, esc closes,
 * space closes (and still types the space). Every other key falls through to the editor, which
 * changes the query.
 */
import { Box, Text } from 'ink';
import { Fzf, type FzfResultItem } from 'fzf';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTheme } from '../theme-context.js';
import { LAYER, useKeys, type WhileLoading } from '../input/InputProvider.js';
import type { Key } from '../input/keys.js';
import type { ActionName } from '../keybindings.js';
import type { Keymap } from '../keymap.js';
import { useKeymap } from '../keymap-context.js';
import { useLatestState } from '../useLatestState.js';

// fzf's own `byLengthAsc` is not reachable from NodeNext typings (its main.d.ts re-exports without
// an extension), so the same tiebreak is written here: among equal scores, the shorter path first.
const shorterFirst = (a: FzfResultItem<string>, b: FzfResultItem<string>) => a.item.length - b.item.length;

/**
 * What a completion list (this one, the `/` list) does with a key while its candidates load
 * (InputProvider's {@link WhileLoading}); a key bound to none of these actions is the editor's
 * (`pass`: a letter changes the query at once). The first action a key is bound to decides.
 */
export const COMPLETION_WHILE_LOADING: readonly (readonly [
  action: ActionName,
  whileLoading: WhileLoading,
  example: string,
])[] = [
  ['completion.up', 'wait', '@src ↑ in one read: moves in the list once it is there'],
  ['completion.down', 'wait', '@src ↓: the second match, not lost on an empty list'],
  ['completion.select', 'wait', '/mo enter: runs /models (it sent "/mo" as a prompt)'],
  ['completion.close', 'now', 'esc closes at once, keys held before it dropped (space, typed too, is `pass`)'],
  ['app.quit', 'now', 'ctrl+c opens the quit question at once, held keys dropped'],
];

/** {@link COMPLETION_WHILE_LOADING} for `key` under `keymap`. */
export function completionWhileLoading(keymap: Keymap, key: Key): WhileLoading {
  for (const [action, whileLoading] of COMPLETION_WHILE_LOADING) {
    if (!keymap.matches(key, action)) continue;
    // space closes the list and goes on to the editor as typing (the handler below): not urgent
    return action === 'completion.close' && key.name === 'space' ? 'pass' : whileLoading;
  }
  return 'pass';
}

/** Rows the popup shows at most. */
export const COMPLETION_ROWS = 10;

export interface FileCompletionProps {
  /** what follows the `@` */
  query: string;
  /** the candidates: relative paths, folders ending in `/`; called once when the popup opens */
  listFiles: () => Promise<string[]>;
  /** a path was chosen (tab/enter) */
  onSelect: (path: string) => void;
  /** esc or space */
  onClose: () => void;
  /** columns the popup may use */
  width: number;
  /** takes keys (default true) */
  active?: boolean;
}

/** The popup; see the module comment for its keys. */
export function FileCompletion({ query, listFiles, onSelect, onClose, width, active = true }: FileCompletionProps) {
  const theme = useTheme();
  const keymap = useKeymap();
  const [files, setFiles] = useState<string[] | undefined>(undefined);
  const [failure, setFailure] = useState<string | undefined>(undefined);
  // the selection lives in a ref too: keys that arrive before React re-renders must see the last move
  const [selected, selectedRef, setSelected] = useLatestState(0);
  const lastQuery = useRef(query);
  if (lastQuery.current !== query) {
    // a new query starts at its best match
    lastQuery.current = query;
    selectedRef.current = 0;
    if (selected !== 0) setSelected(0);
  }

  useEffect(() => {
    let live = true;
    listFiles().then(
      (list) => live && setFiles(list),
      (err: unknown) => live && setFailure(err instanceof Error ? err.message : String(err)),
    );
    return () => {
      live = false;
    };
  }, [listFiles]);

  const finder = useMemo(
    () => (files ? new Fzf(files, { limit: COMPLETION_ROWS, tiebreakers: [shorterFirst] }) : undefined),
    [files],
  );
  const matches = useMemo<FzfResultItem<string>[]>(() => finder?.find(query) ?? [], [finder, query]);
  const clamp = (n: number) => Math.min(n, Math.max(0, matches.length - 1));
  const current = clamp(selectedRef.current);

  useKeys(
    (key) => {
      const current = clamp(selectedRef.current);
      if (keymap.matches(key, 'completion.up')) {
        if (matches.length > 0) setSelected((current - 1 + matches.length) % matches.length);
        return true;
      }
      if (keymap.matches(key, 'completion.down')) {
        if (matches.length > 0) setSelected((current + 1) % matches.length);
        return true;
      }
      if (keymap.matches(key, 'completion.select')) {
        const choice = matches[current];
        if (choice) {
          onSelect(choice.item);
          return true;
        }
        // nothing to choose: tab closes, enter goes on to the editor (it sends)
        if (key.name === 'tab') {
          onClose();
          return true;
        }
        return false;
      }
      if (keymap.matches(key, 'completion.close') && key.name !== 'space') {
        onClose();
        return true;
      }
      if (keymap.matches(key, 'completion.close')) {
        // space closes the list and is typed too
        onClose();
        return false;
      }
      return false;
    },
    {
      layer: LAYER.popup,
      active,
      loading: files === undefined && failure === undefined,
      whileLoading: (key) => completionWhileLoading(keymap, key),
    },
  );

  const inner = Math.max(4, width - 4);
  let body: ReactNode;
  if (failure) body = <Text color={theme.error}>cannot list files: {failure}</Text>;
  else if (!files) body = <Text color={theme.textMuted}>Loading files…</Text>;
  else if (matches.length === 0) body = <Text color={theme.textMuted}>No matching files</Text>;
  else {
    body = matches.map((m, i) => <MatchRow key={m.item} match={m} selected={i === current} width={inner} />);
  }
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.border} paddingX={1} width={Math.max(8, width)}>
      {body}
    </Box>
  );
}

/** One candidate, the characters fzf matched in the primary colour. */
function MatchRow({ match, selected, width }: { match: FzfResultItem<string>; selected: boolean; width: number }) {
  const theme = useTheme();
  const parts: Array<{ text: string; hit: boolean }> = [];
  const chars = [...match.item];
  // fzf's positions index characters (code points)
  for (let i = 0; i < chars.length; i++) {
    const hit = match.positions.has(i);
    const last = parts[parts.length - 1];
    if (last && last.hit === hit) last.text += chars[i];
    else parts.push({ text: chars[i]!, hit });
  }
  return (
    <Box width={width}>
      <Text
        wrap="truncate-start"
        color={selected ? theme.primary : theme.text}
        backgroundColor={selected ? theme.selectionBackground : undefined}
      >
        {selected ? '▸ ' : '  '}
        {parts.map((p, i) =>
          p.hit ? (
            <Text key={i} color={theme.accent} bold>
              {p.text}
            </Text>
          ) : (
            p.text
          ),
        )}
      </Text>
    </Box>
  );
}
