/**
 * Two windows, one project: two apps on one project directory (one SQLite file), as
 * two TUI processes are. A run started in window A first shows what window B added, and the model is
 * sent exactly the history the screen shows; a message deleted elsewhere leaves the screen too.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ChatStore, type ChatState } from '../../src/tui/state/chat-store.js';
import { startTuiApp, type TuiApp } from '../support/tui-app.js';
import { until } from '../support/chat-store-until.js';

const apps: TuiApp[] = [];
const stores: ChatStore[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) s.dispose();
  for (const a of apps.splice(0).reverse()) await a.close();
});

/** Each item as `role: text`. */
const shown = (state: ChatState) =>
  state.items.map((i) => `${i.role}: ${i.message.parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('')}`);

/** A request's messages as `role: text` (Anthropic content blocks or a string). */
const sent = (request: { messages: { role: string; content: string | { type: string; text?: string }[] }[] }) =>
  request.messages.map(
    (m) =>
      `${m.role}: ${typeof m.content === 'string' ? m.content : m.content.flatMap((c) => (c.type === 'text' ? [c.text] : [])).join('')}`,
  );

async function window(
  turns: Parameters<typeof startTuiApp>[0],
  dir?: string,
): Promise<{ app: TuiApp; store: ChatStore }> {
  const app = await startTuiApp(turns, dir ? { dir } : {});
  apps.push(app);
  const store = new ChatStore(app.services);
  stores.push(store);
  return { app, store };
}

describe('two windows on one session', () => {
  it("a run started in window A shows window B's messages first, and sends exactly what is shown", async () => {
    const a = await window([{ text: 'Answer one.' }, { text: 'Answer three.' }]);
    await a.store.send('one from A');
    const sessionId = a.store.getSnapshot().session!.id;

    const b = await window([{ text: 'Answer two.' }], a.app.dir);
    b.store.openSession(sessionId);
    // opening reads the database: B shows A's messages
    expect(shown(b.store.getSnapshot())).toEqual(['user: one from A', 'assistant: Answer one.']);
    await b.store.send('two from B');
    // another process: A got no events for B's messages
    expect(shown(a.store.getSnapshot())).toEqual(['user: one from A', 'assistant: Answer one.']);

    await a.store.send('three from A');
    const state = await until(a.store, (s) => !s.busy && s.items.length === 6);
    const screen = [
      'user: one from A',
      'assistant: Answer one.',
      'user: two from B',
      'assistant: Answer two.',
      'user: three from A',
    ];
    expect(shown(state)).toEqual([...screen, 'assistant: Answer three.']);
    expect(sent(a.app.fake.answered[1])).toEqual(screen);
    // the editor's history has B's prompt too
    expect(state.promptHistory).toEqual(['one from A', 'two from B', 'three from A']);
  });

  it('a message deleted in the database leaves the screen when the next run starts', async () => {
    const a = await window([{ text: 'First.' }, { text: 'Second.' }, { text: 'Third.' }]);
    await a.store.send('keep');
    await a.store.send('drop');
    const before = await until(a.store, (s) => !s.busy && s.items.length === 4);
    // another window removed the last exchange (as `opencode sessions` or an undo may)
    for (const item of before.items.slice(2)) a.app.app.db.messages.delete(item.id);
    await a.store.send('after');
    const state = await until(a.store, (s) => !s.busy && s.items.length === 4);
    expect(shown(state)).toEqual(['user: keep', 'assistant: First.', 'user: after', 'assistant: Third.']);
    expect(sent(a.app.fake.answered[2])).toEqual(['user: keep', 'assistant: First.', 'user: after']);
  });
});
