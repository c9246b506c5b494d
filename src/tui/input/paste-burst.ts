/**
 * Pastes the terminal does not mark. Without bracketed paste (a terminal that lacks
 * it, an ssh hop or multiplexer that drops the markers, `tmux send-keys -l`), a pasted text arrives
 * as plain input: its line breaks are Enter presses. Taken as keys, every line was sent as its own
 * prompt (20,000 pasted lines became 858 billed requests in 90 s).
 *
 * What tells a paste from typing is time: nobody types an Enter in the same read as the text after
 * it, or a few milliseconds after the key before it. So the input router holds such input as a
 * *burst*, keeps adding every read that follows within {@link BURST_GAP_MS}, and decides when the
 * reads stop ({@link classifyBurst}): a paste (inserted whole, never sent), or keys (typed ahead:
 * handled one by one as if typed). A lone Enter after a pause is never held: it sends at once. An
 * escape sequence (an arrow, a function key) ends a burst early: it is a key, not pasted text.
 *
 * The numbers are data, with the reasoning beside each; the functions are pure.
 */

/**
 * A burst ends after this long without input, ms. A terminal or tmux delivers a long paste in
 * reads well under 1 ms apart; a loaded machine can stretch a gap to several ms. Typing is slower:
 * 30 ms between keys is already ~400 words a minute. Only input that is held (see
 * {@link startsBurst}) waits this long; a lone typed Enter is never delayed.
 */
export const BURST_GAP_MS = 30;

/**
 * An Enter this close after the previous input (ms) may be a line break of a paste that arrived in
 * several reads, and is held as a burst. Two keys of a person's typing are further apart (key
 * rollover of a fast typist: ~15 ms and more).
 */
export const ENTER_AFTER_INPUT_MS = 8;

/**
 * Text with a line break this soon after a paste ended (ms) still belongs to it: a paste whose
 * delivery stalled longer than {@link BURST_GAP_MS} (a busy machine) must not have its next line
 * sent. A lone Enter is not held for this: a person who pastes and sends at once means it (and
 * a test that presses Enter as soon as the paste shows does too).
 */
export const PASTE_FOLLOW_MS = 250;

/**
 * Text typed ahead of an Enter in one read that is still typing, in characters: a busy app or ssh
 * joins a person's last keys and the Enter into one read (`yes⏎`). Longer text before a single
 * line break is a pasted line, inserted and not sent.
 */
export const MAX_TYPED_AHEAD = 32;

const LINE_BREAK = /[\r\n]/;

/**
 * Whether one input event (as Ink splits a read: a run of text or one escape sequence) starts a
 * burst, the router not holding one already.
 * - text and a line break in one event (`line 1⏎line 2`, `yes⏎`): yes;
 * - a lone Enter within {@link ENTER_AFTER_INPUT_MS} of the previous input: yes;
 * - a lone Enter after a pause (even right after a paste), text without a line break, an escape
 *   sequence: no.
 */
export function startsBurst(sequence: string, sincePreviousInputMs: number): boolean {
  if (sequence.startsWith('\u001b') || !LINE_BREAK.test(sequence)) return false;
  if (sequence.length > 1) return true;
  return sincePreviousInputMs <= ENTER_AFTER_INPUT_MS;
}

/** What a finished burst was. */
export type BurstKind = 'paste' | 'keys';

/**
 * Decides a finished burst (the events joined). `afterPaste`: it started within
 * {@link PASTE_FOLLOW_MS} of a paste (the tail of a paste whose delivery stalled). Keys only when it is what typing ahead looks like: at most
 * {@link MAX_TYPED_AHEAD} characters and then one line break, the last character (`yes⏎`, a lone
 * `⏎`); anything else — a line break with text after it, two line breaks, a long line — is a paste.
 *
 * | burst | kind |
 * |---|---|
 * | `yes⏎` | keys (typed ahead, then sent) |
 * | `⏎` | keys (an Enter held because it came fast; it sends) |
 * | `line 1⏎line 2` | paste |
 * | `line 1⏎line 2⏎` | paste |
 * | `npm test⏎` (short, one line) | keys |
 * | 200 characters then `⏎` | paste |
 * | `last line⏎` right after a paste | paste (its stalled tail) |
 */
export function classifyBurst(text: string, afterPaste: boolean): BurstKind {
  if (afterPaste) return 'paste';
  const normalised = text.replace(/\r\n/g, '\n');
  const breaks = normalised.match(/[\r\n]/g)?.length ?? 0;
  const typedAhead =
    breaks === 1 && LINE_BREAK.test(normalised.at(-1) ?? '') && normalised.length - 1 <= MAX_TYPED_AHEAD;
  return typedAhead ? 'keys' : 'paste';
}

/**
 * Whether text typed while the TUI loaded (held by the terminal, handed over as one run) is a typed
 * line: text and one line break at its end. The loading app read the keys late, so a person's prompt
 * and its Enter arrive joined, however long the prompt; {@link MAX_TYPED_AHEAD} does not apply. Text
 * with a line break inside it is still a paste (a paste without markers must not send its lines).
 *
 * | held text | typed line |
 * |---|---|
 * | `fix the failing test in src/add.ts please⏎` | yes (inserted, then sent) |
 * | `fix it` | no (no Enter: plain typing) |
 * | `line 1⏎line 2⏎` | no (a paste) |
 */
export function isTypedLine(text: string): boolean {
  const normalised = text.replace(/\r\n/g, '\n');
  const breaks = normalised.match(/[\r\n]/g)?.length ?? 0;
  return breaks === 1 && LINE_BREAK.test(normalised.at(-1) ?? '');
}

/**
 * Splits raw terminal input into the events Ink's input parser makes of it: escape sequences (CSI
 * `ESC [ … final`, SS3 `ESC O x`, `ESC` and one character) and the runs of text between them.
 */
export function splitInputEvents(raw: string): string[] {
  return raw.split(/(\u001b(?:\[[0-?]*[ -/]*[@-~]|O[@-~]|[\s\S])?)/).filter((part) => part !== '');
}
