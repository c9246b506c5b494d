/**
 * "Switch Session" (ctrl+s): the sessions, most recently used first, each with its title, message
 * count, cost and how long ago it changed. Enter switches, esc closes (as in the original); `r`
 * renames the selected session in place, `d` deletes it after a Yes/No question.
 */
import { Text } from 'ink';
import { useState } from 'react';
import { DialogFrame } from '../components/DialogFrame.js';
import { clamp, useScreenSize } from '../components/DialogFrame.js';
import { formatCost } from '../format.js';
import { LAYER, useKeys } from '../input/InputProvider.js';
import type { Key } from '../input/keys.js';
import { confirmButtons, hintRow, keyPhrase } from '../key-hints.js';
import { useKeymap } from '../keymap-context.js';
import { useTheme } from '../theme-context.js';
import { useLatestState } from '../useLatestState.js';
import { Buttons } from './Buttons.js';
import { HintRow, ListDialog, type DialogSizeProps, type ListItem } from './ListDialog.js';

/** A session as the dialog lists it. */
export interface SessionSummary {
  id: string;
  title: string;
  /** unix ms */
  updatedAt: number;
  messageCount: number;
  /** US dollars */
  costUsd: number;
}

export interface SessionsDialogProps extends DialogSizeProps {
  /** in the order shown (most recently used first) */
  sessions: readonly SessionSummary[];
  /** the open session: marked ✓ and selected at first */
  currentId?: string;
  onSelect(id: string): void;
  onClose(): void;
  /** saves a new title (already trimmed, never empty); throw to keep the old one (the message is shown) */
  onRename(id: string, title: string): void;
  /** deletes the session, after the person said yes; throw to keep it (the message is shown) */
  onDelete(id: string): void;
  /** "now" for the relative times, unix ms; default `Date.now()` at render */
  now?: number;
}

/** Longest title the rename field takes, in characters. */
export const MAX_TITLE_CHARS = 200;

type Mode =
  { kind: 'list' } | { kind: 'rename'; id: string; text: string } | { kind: 'delete'; id: string; yes: boolean };

/**
 * The sessions dialog: 60 columns wide (less on a narrow screen), 10 rows visible. Each row: title
 * (or `Untitled session`), then `<n> msgs · $<cost> · <relative time>`.
 */
export function SessionsDialog(props: SessionsDialogProps) {
  const screen = useScreenSize(props.width, props.height);
  const keymap = useKeymap();
  const now = props.now ?? Date.now();
  const width = clamp(60, 30, screen.columns - 2);
  // renames and deletions show at once, without waiting for the caller to hand a new list
  const [sessions, setSessions] = useState(props.sessions);
  // the mode as the last key left it: keys that arrive in one read (`abc` typed into the rename
  // field, → → in the delete question) reach the handlers before React re-renders
  const [mode, modeRef, setMode] = useLatestState<Mode>({ kind: 'list' });
  const [selectedId, setSelectedId] = useState(props.currentId ?? sessions[0]?.id);
  const [problem, setProblem] = useState<string>();

  const attempt = (work: () => void): boolean => {
    try {
      work();
      setProblem(undefined);
      return true;
    } catch (err) {
      setProblem((err as Error).message);
      return false;
    }
  };

  if (mode.kind === 'rename') {
    return (
      <RenameField
        width={width}
        text={mode.text}
        problem={problem}
        latestText={() => (modeRef.current.kind === 'rename' ? modeRef.current.text : mode.text)}
        onChange={(change) => {
          const now = modeRef.current;
          if (now.kind === 'rename') setMode({ ...now, text: change(now.text) });
        }}
        onCancel={() => setMode({ kind: 'list' })}
        onSave={(title) => {
          if (!attempt(() => props.onRename(mode.id, title))) return;
          setSessions((all) => all.map((s) => (s.id === mode.id ? { ...s, title } : s)));
          setMode({ kind: 'list' });
        }}
      />
    );
  }
  if (mode.kind === 'delete') {
    const session = sessions.find((s) => s.id === mode.id);
    return (
      <DeleteQuestion
        width={width}
        title={displayTitle(session?.title ?? '')}
        messageCount={session?.messageCount ?? 0}
        yes={mode.yes}
        problem={problem}
        onToggle={() => {
          const now = modeRef.current;
          if (now.kind === 'delete') setMode({ ...now, yes: !now.yes });
        }}
        onAnswer={(answer) => {
          const now = modeRef.current;
          const yes = answer ?? (now.kind === 'delete' && now.yes);
          if (yes && !attempt(() => props.onDelete(mode.id))) return;
          if (yes) {
            const at = sessions.findIndex((s) => s.id === mode.id);
            const rest = sessions.filter((s) => s.id !== mode.id);
            setSessions(rest);
            setSelectedId(rest[Math.min(at, rest.length - 1)]?.id);
          }
          setMode({ kind: 'list' });
        }}
      />
    );
  }

  const items: ListItem[] = sessions.map((s) => ({
    id: s.id,
    label: displayTitle(s.title),
    detail: `${s.messageCount} ${s.messageCount === 1 ? 'msg' : 'msgs'} · ${formatCost(s.costUsd)} · ${relativeTime(s.updatedAt, now)}`,
    current: s.id === props.currentId,
  }));
  const selectedIndex = Math.max(
    0,
    sessions.findIndex((s) => s.id === selectedId),
  );
  // the row ListDialog has selected when the key arrives: after a ↓ earlier in the same read too
  const onKey = (key: Key, item: ListItem | undefined): boolean => {
    const selected = sessions.find((s) => s.id === item?.id);
    if (!selected) return false;
    if (keymap.matches(key, 'session.rename')) {
      setProblem(undefined);
      setMode({ kind: 'rename', id: selected.id, text: selected.title });
      return true;
    }
    if (keymap.matches(key, 'session.delete')) {
      setProblem(undefined);
      setMode({ kind: 'delete', id: selected.id, yes: false });
      return true;
    }
    return false;
  };
  const hint = hintRow(keymap, [
    ['dialog.select', 'open'],
    ['session.rename', 'rename'],
    ['session.delete', 'delete'],
    ['dialog.close', 'close'],
  ]);
  return (
    <ListDialog
      title="Switch Session"
      items={items}
      initialIndex={selectedIndex}
      width={width}
      emptyText="No sessions yet"
      onChoose={(item) => props.onSelect(item.id)}
      onClose={props.onClose}
      onKey={onKey}
      onMove={(index) => setSelectedId(sessions[index]?.id)}
      footer={
        <>
          {problem ? <ProblemRow text={problem} /> : null}
          <HintRow text={hint} />
        </>
      }
    />
  );
}

/** The rename field: the title as text with a cursor at its end; enter saves, esc goes back to the list. */
function RenameField(props: {
  width: number;
  text: string;
  problem?: string;
  /** the text as the keys so far left it (several can arrive before a re-render) */
  latestText(): string;
  /** changes the text from its latest value */
  onChange(change: (text: string) => string): void;
  onSave(title: string): void;
  onCancel(): void;
}) {
  const theme = useTheme();
  const keymap = useKeymap();
  const [empty, setEmpty] = useState(false);
  useKeys(
    (key) => {
      if (keymap.matches(key, 'dialog.close')) props.onCancel();
      else if (keymap.matches(key, 'dialog.select')) {
        const title = props.latestText().replace(/\s+/g, ' ').trim();
        if (title === '') setEmpty(true);
        else props.onSave(title);
      } else if (key.name === 'backspace' && !key.ctrl && !key.meta)
        props.onChange((text) => [...text].slice(0, -1).join(''));
      else if (key.text !== '' && !key.ctrl && !key.meta) {
        setEmpty(false);
        props.onChange((text) =>
          text.length < MAX_TITLE_CHARS ? (text + key.text.replace(/[\r\n\t]/g, ' ')).slice(0, MAX_TITLE_CHARS) : text,
        );
      }
      return true;
    },
    { layer: LAYER.dialog },
  );
  return (
    <DialogFrame title="Rename Session" width={props.width}>
      <Text wrap="truncate-start" color={theme.text}>
        {`> ${props.text}█`}
      </Text>
      {empty ? (
        <ProblemRow
          text={`A title cannot be empty: type one${keyPhrase(keymap, 'dialog.close', (key) => `, or ${key} to keep the old one`)}`}
        />
      ) : null}
      {props.problem ? <ProblemRow text={props.problem} /> : null}
      <HintRow
        text={hintRow(keymap, [
          ['dialog.select', 'save'],
          ['dialog.close', 'cancel'],
        ])}
      />
    </DialogFrame>
  );
}

/** "Delete session …?" with No selected at first, so a stray enter deletes nothing. */
function DeleteQuestion(props: {
  width: number;
  title: string;
  messageCount: number;
  yes: boolean;
  problem?: string;
  onToggle(): void;
  /** `undefined`: the selected button's answer, as the keys so far left it */
  onAnswer(yes: boolean | undefined): void;
}) {
  const theme = useTheme();
  const keymap = useKeymap();
  useKeys(
    (key) => {
      if (keymap.matches(key, 'confirm.yes')) props.onAnswer(true);
      else if (keymap.matches(key, 'confirm.no') || keymap.matches(key, 'dialog.close')) props.onAnswer(false);
      else if (keymap.matches(key, 'button.next') || keymap.matches(key, 'button.previous')) props.onToggle();
      else if (keymap.matches(key, 'button.press')) props.onAnswer(undefined);
      return true;
    },
    { layer: LAYER.dialog },
  );
  const messages = `${props.messageCount} ${props.messageCount === 1 ? 'message' : 'messages'}`;
  return (
    <DialogFrame title="Delete Session" width={props.width}>
      <Text
        color={theme.text}
        wrap="wrap"
      >{`Delete "${props.title}" and its ${messages}? This cannot be undone.`}</Text>
      {props.problem ? <ProblemRow text={props.problem} /> : null}
      <Text> </Text>
      <Buttons buttons={confirmButtons(keymap)} selected={props.yes ? 0 : 1} width={props.width - 4} />
    </DialogFrame>
  );
}

function ProblemRow({ text }: { text: string }) {
  const theme = useTheme();
  return (
    <Text color={theme.error} wrap="wrap">
      {text}
    </Text>
  );
}

function displayTitle(title: string): string {
  return title.trim() || 'Untitled session';
}

/**
 * How long ago `thenMs` was, from `nowMs`: `just now` (under a minute, or in the future), `5m ago`,
 * `3h ago`, `2d ago`, then the date as `YYYY-MM-DD` (local time) from 30 days on.
 */
export function relativeTime(thenMs: number, nowMs: number): string {
  const seconds = Math.floor((nowMs - thenMs) / 1000);
  if (seconds < 60) return 'just now';
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours}h ago`;
  const days = Math.floor(hours / 24);
  if (days < 30) return `${days}d ago`;
  const d = new Date(thenMs);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`;
}
