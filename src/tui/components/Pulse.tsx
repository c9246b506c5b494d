/**
 * The pulse: one line above the editor while the agent works, so a silent provider is
 * never a still screen: a spinner, what is happening (`Running bash: npm test`, or the retry's
 * countdown `Retrying in 8 s (overloaded)`), the time since the run started, and `esc to interrupt`.
 *
 * It animates with its own timer at {@link PULSE_FRAME_MS} (≤ 10 frames a second) and holds the
 * frame in its own state, so a tick re-renders this line only: the message list and the editor are
 * not rendered again (typing cost stays flat, bench/tui.ts). Each drawn tick is still a whole Ink
 * frame (layout and output of the screen), so the timer draws only when nothing else drew the line
 * lately: while a reply streams, the spinner steps on the app's own frames (it is rendered with the
 * app, not memoised) and its timer adds none (one more frame per tick costs the stream ~10–20 % more CPU,
 * bench/tui.ts).
 */
import chalk from 'chalk';
import { Text } from 'ink';
import { performance } from 'node:perf_hooks';
import React, { useEffect, useLayoutEffect, useReducer, useRef } from 'react';
import type { Activity } from '../state/activity.js';
import { retryLabel } from '../state/activity.js';
import { fitLine } from '../render/text-width.js';
import { useTheme } from '../theme-context.js';

/** Time between two frames of the spinner, ms: 8 frames a second. */
export const PULSE_FRAME_MS = 125;

/**
 * A frame drawn this long (ms) after the spinner's last step steps it again: below
 * {@link PULSE_FRAME_MS}, so each tick of the pulse's own timer steps it though the timer runs a
 * little late or early, and frames the app draws anyway (a streamed reply, ~30 a second) step it
 * about as often.
 */
export const PULSE_STEP_MS = 100;

const monotonicNow = () => performance.now();

/** The spinner's frames (a braille dot circling, as most terminal agents draw it). */
export const SPINNER_FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'] as const;

export interface PulseProps {
  activity: Activity;
  /** columns of the line */
  width: number;
  /** the key that interrupts, as hints show it (`esc`) */
  interruptKey: string | undefined;
  /** unix ms now; default Date.now (tests pass a clock) */
  now?: () => number;
  /** monotonic ms for the spinner's steps; default performance.now (tests pass a clock) */
  clock?: () => number;
}

/** `0s`, `59s`, `1m 20s`, `1h 2m`: the elapsed time as the pulse shows it. */
export function formatElapsed(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m ${seconds % 60}s`;
  return `${Math.floor(seconds / 3600)}h ${Math.floor((seconds % 3600) / 60)}m`;
}

/**
 * The pulse's text without the spinner: `Running bash: npm test · 12s · esc to interrupt`; while
 * a retry waits, its countdown replaces the label.
 */
export function pulseText(activity: Activity, nowMs: number, interruptKey: string | undefined): string {
  const label = activity.retry && nowMs < activity.retry.untilMs ? retryLabel(activity.retry, nowMs) : activity.label;
  // an unbound interrupt (`"session.interrupt": "none"`) is not offered
  return `${label} · ${formatElapsed(nowMs - activity.startedAt)}${interruptKey === undefined ? '' : ` · ${interruptKey} to interrupt`}`;
}

/** The pulse line; mount it only while the agent works. */
export function Pulse({ activity, width, interruptKey, now = Date.now, clock = monotonicNow }: PulseProps) {
  const theme = useTheme();
  const [, redraw] = useReducer((n: number) => n + 1, 0);
  // the glyph shown, when it was first shown and when the line was last drawn (clock ms); kept after each commit
  const shown = useRef<{ frame: number; steppedAt: number; drawnAt: number }>(undefined);
  const t = clock();
  shown.current ??= { frame: 0, steppedAt: t, drawnAt: t };
  const step = t - shown.current.steppedAt >= PULSE_STEP_MS;
  const frame = step ? (shown.current.frame + 1) % SPINNER_FRAMES.length : shown.current.frame;
  useLayoutEffect(() => {
    shown.current = { frame, steppedAt: step ? t : shown.current!.steppedAt, drawnAt: t };
  });
  useEffect(() => {
    // draws only when nothing else did lately: while a reply streams, the app's frames carry the spinner
    const timer = setInterval(() => {
      if (clock() - shown.current!.drawnAt >= PULSE_FRAME_MS / 2) redraw();
    }, PULSE_FRAME_MS);
    return () => clearInterval(timer);
  }, [clock]);
  const spinner = chalk.hex(theme.primary)(SPINNER_FRAMES[frame]!);
  const text = chalk.hex(theme.textMuted)(pulseText(activity, now(), interruptKey));
  return <Text wrap="truncate-end">{fitLine(`${spinner} ${text}`, Math.max(1, width))}</Text>;
}
