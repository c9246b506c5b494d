/**
 * "Switch Session" (ctrl+s): the sessions, newest first, with how long ago each changed. Enter
 * switches, esc closes (reference §9.2–9.3).
 */
import { ListDialog, type DialogSizeProps, type ListItem } from './ListDialog.js';
import { clamp, useScreenSize } from '../components/DialogFrame.js';

/** A session as the dialog lists it. */
export interface SessionSummary {
  id: string;
  title: string;
  /** unix ms */
  updatedAt: number;
  messageCount: number;
}

export interface SessionsDialogProps extends DialogSizeProps {
  /** newest first, as shown */
  sessions: readonly SessionSummary[];
  /** the open session: marked ✓ and selected at first */
  currentId?: string;
  onSelect(id: string): void;
  onClose(): void;
  /** "now" for the relative times, unix ms; default `Date.now()` at render */
  now?: number;
}

/**
 * The sessions dialog: 60 columns wide (less on a narrow screen), 10 rows visible. Each row: title
 * (or `Untitled session`), then `<n> msgs · <relative time>`.
 */
export function SessionsDialog(props: SessionsDialogProps) {
  const screen = useScreenSize(props.width, props.height);
  const now = props.now ?? Date.now();
  const items: ListItem[] = props.sessions.map((s) => ({
    id: s.id,
    label: s.title.trim() || 'Untitled session',
    detail: `${s.messageCount} ${s.messageCount === 1 ? 'msg' : 'msgs'} · ${relativeTime(s.updatedAt, now)}`,
    current: s.id === props.currentId,
  }));
  const current = props.sessions.findIndex((s) => s.id === props.currentId);
  return (
    <ListDialog
      title="Switch Session"
      items={items}
      initialIndex={Math.max(0, current)}
      width={clamp(60, 30, screen.columns - 2)}
      emptyText="No sessions yet"
      onChoose={(item) => props.onSelect(item.id)}
      onClose={props.onClose}
    />
  );
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
