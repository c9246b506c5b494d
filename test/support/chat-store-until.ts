/**
 * Waiting on the TUI's store in tests: {@link until} resolves with the first state (the current one
 * or a notified one) that passes a check, and on timeout rejects with what the store held.
 */
import type { ChatState, ChatStore } from '../../src/tui/state/chat-store.js';

/**
 * Resolves when `check` passes on the store's state, now or at a later notification.
 * @throws after `timeoutMs` (default 10 s), naming busy, the queue and each item's parts
 */
export function until(store: ChatStore, check: (state: ChatState) => boolean, timeoutMs = 10_000): Promise<ChatState> {
  return new Promise((resolve, reject) => {
    if (check(store.getSnapshot())) return resolve(store.getSnapshot());
    const timer = setTimeout(() => {
      off();
      const { busy, queue, queueHeld, items } = store.getSnapshot();
      reject(
        new Error(
          `timed out; state: ${JSON.stringify({ busy, queue, queueHeld, items: items.map((i) => i.message.parts) })}`,
        ),
      );
    }, timeoutMs);
    const off = store.subscribe(() => {
      if (!check(store.getSnapshot())) return;
      clearTimeout(timer);
      off();
      resolve(store.getSnapshot());
    });
  });
}
