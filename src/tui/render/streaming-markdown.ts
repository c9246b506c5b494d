/**
 * Markdown of a message that is still streaming, rendered incrementally: the text up to its last
 * block boundary (a blank line outside a code fence) does not change any more, so its lines are
 * kept and only the block being written is rendered again. Without this, every frame re-parsed the
 * whole message (about 15 ms a frame at 20 KB, most of a core while a long answer streams).
 *
 * The lines can differ slightly from a full render where a construct spans a blank line (a loose
 * list); the finished message is rendered in full once, so that lasts only while it streams.
 */
import type { Theme } from '../theme.js';
import { onHighlighterLoaded } from './highlight.js';
import { nextFenceState, renderMarkdown, safeStreamingPrefix, type OpenFence } from './markdown.js';

interface Stable {
  /** the text before the boundary */
  prefix: string;
  lines: string[];
}

/** One entry per width and theme: one message streams at a time (a few at most: sub-agents). */
const stableByKey = new Map<string, Stable>();
const MAX_KEYS = 8;
// code rendered before the grammars loaded was uncoloured
onHighlighterLoaded(() => stableByKey.clear());

/** Index of the last blank line outside a code fence (the start of the `\n\n`), or -1. */
export function lastBlockBoundary(text: string): number {
  let open: OpenFence | undefined;
  let boundary = -1;
  let offset = 0;
  for (const line of text.split('\n')) {
    open = nextFenceState(open, line);
    if (!open && line.trim() === '' && offset > 0) boundary = offset - 1;
    offset += line.length + 1;
  }
  return boundary;
}

/**
 * The lines of streaming markdown `text` (as {@link renderMarkdown} of {@link safeStreamingPrefix}),
 * re-rendering only what follows the last block boundary. `key` names the message (its id).
 */
export function renderStreamingMarkdown(key: string, text: string, width: number, theme: Theme): string[] {
  const safe = safeStreamingPrefix(text);
  const boundary = lastBlockBoundary(safe);
  if (boundary < 0) return renderMarkdown(safe, width, theme);
  const prefix = safe.slice(0, boundary);
  const cacheKey = `${key}\u0000${width}\u0000${theme.cacheKey ?? theme.name}`;
  let stable = stableByKey.get(cacheKey);
  if (!stable || stable.prefix !== prefix) {
    stable = { prefix, lines: renderMarkdown(prefix, width, theme) };
    stableByKey.delete(cacheKey);
    stableByKey.set(cacheKey, stable);
    while (stableByKey.size > MAX_KEYS) stableByKey.delete(stableByKey.keys().next().value!);
  }
  const tail = renderMarkdown(safe.slice(boundary), width, theme);
  if (tail.length === 0) return stable.lines;
  return stable.lines.length ? [...stable.lines, '', ...tail] : tail;
}
