/**
 * The bound on what one message part may hold in storage: a reply of tens of megabytes
 * is kept as its first and last {@link MAX_STORED_PART_CHARS}/2 characters around a note that says what
 * was cut, the way tool output is cut (tools/truncate.ts, the `marker` style). The stored text is also what
 * later turns send back to the provider, so the model sees the same note.
 *
 * Cut: a `text` part's `text` and a `tool_result` part's `content`. Not cut: thinking (its signature
 * covers the exact text, and a changed block is rejected by the Anthropic API), a tool call's input
 * (cutting its JSON would make it invalid) and images.
 */
import type { MessagePart } from '../message.js';

/** Characters (UTF-16 units) one stored part keeps at most, note excluded: 4 MiB of ASCII. */
export const MAX_STORED_PART_CHARS = 4 * 1024 * 1024;

/** Room left for the note of {@link cutMiddle} beyond `maxChars`, in characters; the note is ~170. */
export const CUT_NOTE_MAX_CHARS = 256;

/**
 * `text` unchanged when it has at most `maxChars` + {@link CUT_NOTE_MAX_CHARS} characters; else its
 * first and last `maxChars / 2` characters (never half of a surrogate pair) joined by a note naming
 * how many characters and lines were cut and how long the whole was. Cutting a cut text changes
 * nothing (the agent and the store both apply it).
 */
export function cutMiddle(text: string, maxChars: number = MAX_STORED_PART_CHARS): string {
  if (text.length <= maxChars + CUT_NOTE_MAX_CHARS) return text;
  const half = Math.floor(maxChars / 2);
  let headEnd = half;
  let tailStart = text.length - half;
  // a UTF-16 pair split at either edge would leave a lone surrogate: keep the pair out whole
  if (isHighSurrogate(text.charCodeAt(headEnd - 1))) headEnd--;
  if (isLowSurrogate(text.charCodeAt(tailStart))) tailStart++;
  let lines = 1;
  for (let i = text.indexOf('\n', headEnd); i !== -1 && i < tailStart; i = text.indexOf('\n', i + 1)) lines++;
  const cut = tailStart - headEnd;
  const note =
    `\n\n[… ${count(cut)} characters (${count(lines)} line${lines === 1 ? '' : 's'}) cut here when this was stored: ` +
    `it had ${count(text.length)} characters; the first ${count(headEnd)} and the last ${count(text.length - tailStart)} are kept …]\n\n`;
  return text.slice(0, headEnd) + note + text.slice(tailStart);
}

/** The part with its text bounded by {@link cutMiddle}; the same object when nothing was cut. */
export function capPart(part: MessagePart, maxChars: number = MAX_STORED_PART_CHARS): MessagePart {
  const limit = maxChars + CUT_NOTE_MAX_CHARS;
  if (part.type === 'text' && part.text.length > limit) return { ...part, text: cutMiddle(part.text, maxChars) };
  if (part.type === 'tool_result' && part.content.length > limit)
    return { ...part, content: cutMiddle(part.content, maxChars) };
  return part;
}

/** Every part bounded by {@link capPart}; the same array when nothing was cut. */
export function capParts(parts: MessagePart[], maxChars: number = MAX_STORED_PART_CHARS): MessagePart[] {
  let out: MessagePart[] | undefined;
  parts.forEach((part, i) => {
    const capped = capPart(part, maxChars);
    if (capped !== part) (out ??= [...parts])[i] = capped;
  });
  return out ?? parts;
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;
const count = (n: number) => n.toLocaleString('en-US');
