/**
 * Long results in the store, against a real app: a cut tool result expands to the
 * stored one (read back from SQLite) and collapses again; the pager's whole result; unknown calls.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DISPLAY_RESULT_MAX_CHARS } from '../../src/tui/state/chat-item.js';
import { ChatStore } from '../../src/tui/state/chat-store.js';
import { startTuiApp, type TuiApp } from '../support/tui-app.js';
import { until } from '../support/chat-store-until.js';

let t: TuiApp | undefined;
let store: ChatStore | undefined;
afterEach(async () => {
  store?.dispose();
  await t?.close();
  t = undefined;
  store = undefined;
});

describe('expanding a long tool result', () => {
  it('shows the stored result when expanded and the cut one when collapsed; the pager gets it whole', async () => {
    t = await startTuiApp([
      { toolCalls: [{ id: 'toolu_view', name: 'view', input: { file_path: 'big.txt' } }] },
      { text: 'Read it.' },
    ]);
    const fileText = 'line of text\n'.repeat(2000);
    writeFileSync(join(t.dir, 'big.txt'), fileText);
    store = new ChatStore(t.services);
    await store.send('read big.txt');
    await until(store, (s) => !s.busy && s.items.length === 3);
    const stored = t.services.sessions.messages(store.getSnapshot().session!.id).find((m) => m.role === 'tool')!
      .parts[0] as unknown as {
      content: string;
      metadata: { content: string };
    };
    const storedContent = stored.content;
    expect(stored.metadata.content.length).toBeGreaterThan(20_000);
    expect(store.getSnapshot().items[1]!.tools[0]!.result!.content).toHaveLength(DISPLAY_RESULT_MAX_CHARS);

    expect(store.toggleResult('toolu_view')).toBe('expanded');
    const expanded = (await until(store, (s) => s.items[1]!.tools[0]!.expanded === true)).items[1]!.tools[0]!;
    expect(expanded.result!.content).toBe(storedContent);
    // the file's text for the code block is kept whole too (it was cut at 20,000 characters)
    expect(expanded.result!.metadata?.content).toBe(stored.metadata.content);

    expect(store.toggleResult('toolu_view')).toBe('collapsed');
    const collapsed = (await until(store, (s) => s.items[1]!.tools[0]!.expanded === undefined)).items[1]!.tools[0]!;
    expect(collapsed.result!.content).toHaveLength(DISPLAY_RESULT_MAX_CHARS);

    expect(store.storedResult('toolu_view')).toMatchObject({
      call: { name: 'view' },
      result: { content: storedContent },
    });
    expect(store.toggleResult('toolu_nope')).toBe('missing');
    expect(store.storedResult('toolu_nope')).toBeUndefined();
  });
});
