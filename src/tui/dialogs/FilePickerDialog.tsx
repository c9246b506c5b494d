/**
 * The image file picker (ctrl+f, as in the original): a folder's sub-folders and attachable images
 * (`.jpg .jpeg .png .webp`; hidden entries left out), folders first.
 *
 * Keys ({@link LAYER.dialog}: it takes every key): j/k or ↑/↓ move; l, → or enter go into a folder
 * or pick an image; h, ← or backspace go up; `i` starts typing a path (relative to the folder shown,
 * or absolute, `~` for home; enter goes there or picks it, esc stops typing); esc closes.
 * A paste types its text as a path.
 */
import { Box, Text } from 'ink';
import { readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { useMemo, useRef, useState } from 'react';
import { DialogFrame } from '../components/DialogFrame.js';
import { hasImageExtension } from '../input/attachments.js';
import { backspace, editorWith, insertText } from '../input/editor-state.js';
import { LAYER, sanitizePaste, useKeys, usePaste } from '../input/InputProvider.js';
import { hintRow } from '../key-hints.js';
import { useKeymap } from '../keymap-context.js';
import { matchesBinding, type Key } from '../input/keys.js';
import { useTheme } from '../theme-context.js';
import { useLatestState } from '../useLatestState.js';

/** Entry rows shown at once. */
export const PICKER_ROWS = 10;

export interface FilePickerDialogProps {
  /** the folder it opens in */
  cwd: string;
  /** an image file was chosen: its absolute path (not checked beyond its name; loadAttachment checks) */
  onPick: (path: string) => void;
  onClose: () => void;
  /** total columns; default 60 */
  width?: number;
}

/** One row of the listing. */
export interface PickerEntry {
  name: string;
  isDir: boolean;
}

/**
 * The sub-folders and image files of `dir`, folders first, each group by name (case-insensitive).
 * Hidden entries are left out; a symbolic link counts as what it points to. An unreadable folder
 * lists nothing.
 */
export function listPickerEntries(dir: string): PickerEntry[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const entries: PickerEntry[] = [];
  for (const name of names) {
    if (name.startsWith('.')) continue;
    let isDir: boolean;
    try {
      isDir = statSync(join(dir, name)).isDirectory();
    } catch {
      continue; // broken link
    }
    if (isDir || hasImageExtension(name)) entries.push({ name, isDir });
  }
  const byName = (a: PickerEntry, b: PickerEntry) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' });
  return [...entries.filter((e) => e.isDir).sort(byName), ...entries.filter((e) => !e.isDir).sort(byName)];
}

function displayPath(dir: string): string {
  const home = homedir();
  return dir === home || dir.startsWith(home + '/') ? '~' + dir.slice(home.length) : dir;
}

/** The picker; see the module comment. */
export function FilePickerDialog({ cwd, onPick, onClose, width = 60 }: FilePickerDialogProps) {
  const theme = useTheme();
  const keymap = useKeymap();
  // The folder, the selection and the typed path live in refs too: keys that arrive in one read
  // (↓ ↓ →, → ↓ enter, `i` and a path) come before React re-renders, and each must act on what the
  // previous one left (a → into a folder, then ↓ and enter, picked from the folder it had left).
  const [dir, dirRef, setDir] = useLatestState(resolve(cwd));
  const [selected, selectedRef, setSelected] = useLatestState(0);
  const [typed, typedRef, setTyped] = useLatestState<string | undefined>(undefined);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const entries = useMemo(() => listPickerEntries(dir), [dir]);
  // the listing of the folder the keys so far left open (read once per folder entered)
  const listed = useRef({ dir, entries });
  const currentEntries = (): PickerEntry[] => {
    if (listed.current.dir !== dirRef.current)
      listed.current = {
        dir: dirRef.current,
        entries: dirRef.current === dir ? entries : listPickerEntries(dirRef.current),
      };
    return listed.current.entries;
  };

  const enter = (target: string, select = 0) => {
    setDir(target);
    setSelected(select);
    setProblem(undefined);
  };

  const goUp = () => {
    const from = dirRef.current;
    const parent = dirname(from);
    if (parent === from) return;
    enter(
      parent,
      Math.max(
        0,
        listPickerEntries(parent).findIndex((e) => e.isDir && e.name === basename(from)),
      ),
    );
  };

  const open = () => {
    const entry = currentEntries()[selectedRef.current];
    if (!entry) return;
    if (entry.isDir) enter(join(dirRef.current, entry.name));
    else onPick(join(dirRef.current, entry.name));
  };

  const submitTyped = (text: string) => {
    const trimmed = text.trim();
    if (trimmed === '') return setTyped(undefined);
    const expanded = trimmed === '~' || trimmed.startsWith('~/') ? homedir() + trimmed.slice(1) : trimmed;
    const target = resolve(dirRef.current, expanded);
    let isDir: boolean;
    try {
      isDir = statSync(target).isDirectory();
    } catch {
      setProblem(`no such file: ${trimmed}`);
      return;
    }
    setTyped(undefined);
    if (isDir) enter(target);
    else onPick(target);
  };

  const onTypingKey = (key: Key, text: string) => {
    if (matchesBinding(key, 'enter')) submitTyped(text);
    else if (matchesBinding(key, 'esc')) {
      setTyped(undefined);
      setProblem(undefined);
    } else if (matchesBinding(key, 'backspace')) setTyped(backspace(editorWith(text)).text);
    else if (key.text && !key.ctrl && !key.meta)
      setTyped(insertText(editorWith(text), sanitizePaste(key.text).replace(/\n/g, '')).text);
  };

  useKeys(
    (key) => {
      if (typedRef.current !== undefined) {
        onTypingKey(key, typedRef.current);
        return true;
      }
      const last = currentEntries().length - 1;
      if (keymap.matches(key, 'dialog.down')) setSelected(Math.min(last, selectedRef.current + 1));
      else if (keymap.matches(key, 'dialog.up')) setSelected(Math.max(0, selectedRef.current - 1));
      else if (keymap.matches(key, 'file_picker.open')) open();
      else if (keymap.matches(key, 'file_picker.parent')) goUp();
      else if (keymap.matches(key, 'file_picker.type')) {
        setTyped('');
        setProblem(undefined);
      } else if (keymap.matches(key, 'dialog.close')) onClose();
      return true;
    },
    { layer: LAYER.dialog },
  );
  usePaste((text) => setTyped((typedRef.current ?? '') + text.replace(/\n/g, '')), { layer: LAYER.dialog });

  const inner = Math.max(10, width - 4);
  // the selection stays in view: at the bottom row once it is past the first page
  const offset = Math.max(0, selected - PICKER_ROWS + 1);
  const shown = entries.slice(offset, offset + PICKER_ROWS);
  return (
    <DialogFrame title="Attach an image" width={width}>
      <Box width={inner}>
        <Text color={theme.textMuted} wrap="truncate-start">
          {displayPath(dir)}
        </Text>
      </Box>
      {entries.length === 0 ? <Text color={theme.textMuted}>no folders or images here</Text> : null}
      {shown.map((e, i) => {
        const isSelected = offset + i === selected && typed === undefined;
        return (
          <Box key={e.name} width={inner}>
            <Text
              wrap="truncate-end"
              color={isSelected ? theme.primary : e.isDir ? theme.accent : theme.text}
              backgroundColor={isSelected ? theme.selectionBackground : undefined}
            >
              {(isSelected ? '> ' : '  ') + e.name + (e.isDir ? '/' : '')}
            </Text>
          </Box>
        );
      })}
      {typed !== undefined ? (
        <Text wrap="truncate-start">
          <Text color={theme.primary}>path: </Text>
          {typed}
          <Text inverse> </Text>
        </Text>
      ) : null}
      {problem ? <Text color={theme.error}>{problem}</Text> : null}
      <Text color={theme.textMuted} wrap="truncate-end">
        {typed !== undefined
          ? 'enter go · esc stop typing' // typing a path: these two keys are fixed, like an editor's
          : hintRow(keymap, [
              '↑↓ move',
              ['file_picker.open', 'open'],
              ['file_picker.parent', 'up'],
              ['file_picker.type', 'type a path'],
              ['dialog.close', 'close'],
            ])}
      </Text>
    </DialogFrame>
  );
}
