/**
 * Send while it works, in the store against a real app and the fake provider: a prompt
 * submitted during a reply is queued and goes when the reply ends; esc cancels the reply and holds the
 * queue, esc again clears it; the newest queued prompt can be taken back out to edit.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ChatStore, type ChatState } from '../../src/tui/state/chat-store.js';
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

const userTexts = (state: ChatState) =>
  state.items
    .filter((i) => i.role === 'user')
    .map((i) => i.message.parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join(''));

describe('the send queue', () => {
  it('a prompt submitted during a reply is queued, then sent as soon as the reply ends', async () => {
    t = await startTuiApp([
      { text: ['First ', 'answer ', 'streams ', 'slowly.'], chunkDelayMs: 150 },
      { text: 'Second answer.' },
    ]);
    store = new ChatStore(t.services);
    expect(store.submit('first')).toBe('sent');
    await until(store, (s) => s.busy);
    expect(store.submit('second, queued')).toBe('queued');
    expect(store.submit('third, queued')).toBe('queued');
    const queued = await until(store, (s) => s.queue.length === 2);
    expect(queued.queue.map((q) => q.text)).toEqual(['second, queued', 'third, queued']);
    expect(queued.queueHeld).toBe(false);

    t.fake.push({ text: 'Third answer.' });
    const done = await until(store, (s) => !s.busy && s.queue.length === 0 && s.items.length === 6);
    expect(userTexts(done)).toEqual(['first', 'second, queued', 'third, queued']);
    expect(t.fake.answered.map((r) => r.messages.at(-1).content.map((c: { text: string }) => c.text))).toEqual([
      ['first'],
      ['second, queued'],
      ['third, queued'],
    ]);
    // each queued prompt went after the reply before it: its request carries that reply
    expect(JSON.stringify(t.fake.answered[1].messages)).toContain('First answer streams slowly.');
  });

  it('esc cancels the reply and holds the queue; esc again clears it and nothing more is sent', async () => {
    t = await startTuiApp([{ text: ['Counting: ', 'one, ', 'two'], chunkDelayMs: 50, stallAfterChunks: 5 }]);
    store = new ChatStore(t.services);
    store.submit('count');
    await until(store, (s) =>
      s.items.some((i) => i.role === 'assistant' && i.message.parts.some((p) => p.type === 'text')),
    );
    store.submit('never sent');
    expect(store.cancel()).toBe('canceled');
    const held = await until(store, (s) => !s.busy && s.items.at(-1)?.footer?.reason === 'canceled');
    expect(held.queue.map((q) => q.text)).toEqual(['never sent']);
    expect(held.queueHeld).toBe(true);

    expect(store.cancel()).toBe('cleared');
    const cleared = await until(store, (s) => s.queue.length === 0);
    expect(cleared.queueHeld).toBe(false);
    expect(cleared.status?.text).toBe('1 queued message removed');
    expect(t.fake.answered).toHaveLength(1);
    expect(store.cancel()).toBe('nothing');
  });

  it('a held queue goes when released (enter on an empty editor), or before a newly submitted prompt', async () => {
    t = await startTuiApp([{ text: ['Slow ', 'reply'], chunkDelayMs: 50, stallAfterChunks: 4 }]);
    store = new ChatStore(t.services);
    store.submit('slow');
    await until(store, (s) =>
      s.items.some((i) => i.role === 'assistant' && i.message.parts.some((p) => p.type === 'text')),
    );
    store.submit('held one');
    store.cancel();
    await until(store, (s) => !s.busy && s.queueHeld);

    t.fake.push({ text: 'Answer to the held one.' }, { text: 'Answer to the new one.' });
    // a new prompt while the queue is held: the held one goes first, the new one after it
    expect(store.submit('new one')).toBe('queued');
    const done = await until(store, (s) => !s.busy && s.queue.length === 0 && s.items.length === 6);
    expect(userTexts(done)).toEqual(['slow', 'held one', 'new one']);
    expect(done.queueHeld).toBe(false);
  });

  it('the newest queued prompt is taken back out to edit; the rest stays queued', async () => {
    t = await startTuiApp([{ text: ['Busy ', 'for ', 'a while.'], chunkDelayMs: 200 }, { text: 'Answered.' }]);
    store = new ChatStore(t.services);
    store.submit('work');
    await until(store, (s) => s.busy);
    store.submit('keep me');
    store.submit('edit me');
    expect(store.recallQueued()?.text).toBe('edit me');
    expect(store.getSnapshot().queue.map((q) => q.text)).toEqual(['keep me']);
    const done = await until(store, (s) => !s.busy && s.queue.length === 0 && s.items.length === 4);
    expect(userTexts(done)).toEqual(['work', 'keep me']);
    expect(store.recallQueued()).toBeUndefined();
  });

  it('esc at once after enter (the custom tools still loading) cancels the run before any request', async () => {
    t = await startTuiApp([{ text: 'never asked for' }]);
    store = new ChatStore(t.services);
    const run = store.send('cancel me at once');
    expect(store.cancel()).toBe('canceled');
    expect((await run)?.reason).toBe('canceled');
    expect(t.fake.answered).toHaveLength(0);
  });

  it('a queue is dropped (said in the status line and the log) when another session is opened', async () => {
    t = await startTuiApp([{ text: 'x', stallAfterChunks: 3 }]);
    store = new ChatStore(t.services);
    store.submit('hang');
    await until(store, (s) => s.busy);
    store.submit('queued');
    store.cancel();
    await until(store, (s) => !s.busy && s.queueHeld);
    store.openSession(undefined);
    const state = await until(store, (s) => s.queue.length === 0);
    expect(state.queueHeld).toBe(false);
    expect(state.status?.text).toBe('1 queued message dropped: another session was opened');
    expect(state.logs.at(-1)?.message).toBe('1 queued message dropped: another session was opened');
  });
});
