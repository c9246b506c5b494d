/**
 * Rendered lines of chat items, kept so that a long session is not re-rendered on every frame:
 * a finished item is rendered once per width/theme, a streaming item once per version.
 */
import type { ChatItem } from '../state/chat-item.js';
import type { Theme } from '../theme.js';
import { layoutChatItem, type ChatItemRenderOptions } from './message-lines.js';
import type { Rows } from './rows.js';

interface Entry {
  key: string;
  lines: Rows;
}

/**
 * A least-recently-used cache of {@link layoutChatItem}'s rows (an array, or for an item holding a
 * huge text, rows cut from it when read, which keep what they found). An item's lines are reused while
 * its `id`, `version`, the width, `showThinking`, the theme's name and the `cwd` are unchanged; any
 * change re-renders. Only the newest rendering of each item is kept (an item's older versions and
 * widths are never asked for again), so a streaming message takes one entry, not one per version.
 * The returned arrays are shared: callers must not change them.
 */
export class LineCache {
  private readonly entries = new Map<string, Entry>();

  /** @param maxEntries items kept (at least 1); the least recently used beyond it are dropped */
  constructor(private readonly maxEntries = 5000) {}

  /** The item's lines: from the cache when nothing they depend on changed, else rendered and stored. */
  get(item: ChatItem, options: ChatItemRenderOptions, theme: Theme): Rows {
    const key = `${item.version}\u0000${options.width}\u0000${options.showThinking ? 1 : 0}\u0000${theme.cacheKey ?? theme.name}\u0000${options.cwd ?? ''}\u0000${options.thinkingKey ?? ''}`;
    const entry = this.entries.get(item.id);
    // re-inserting moves the item to the most recently used end of the Map's order
    this.entries.delete(item.id);
    if (entry && entry.key === key) {
      this.entries.set(item.id, entry);
      return entry.lines;
    }
    const lines = layoutChatItem(item, options, theme);
    this.entries.set(item.id, { key, lines });
    const limit = Math.max(1, this.maxEntries);
    while (this.entries.size > limit) this.entries.delete(this.entries.keys().next().value!);
    return lines;
  }

  /** Items currently cached. */
  get size(): number {
    return this.entries.size;
  }

  /** Drops every cached rendering (e.g. after the theme's colours were edited in place). */
  clear(): void {
    this.entries.clear();
  }
}
