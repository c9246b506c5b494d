/**
 * The TUI's session deleted underneath it (`opencode sessions delete --force` from another shell):
 * the next send loses nothing. The typed message stays in the editor, nothing reaches the provider,
 * and the status line says what happened and what to do, naming the new-session key in effect.
 * A real app on the fake provider, the whole TUI (ink-testing-library), the real bin/opencode deleting.
 */
import { describe, expect, it } from 'vitest';
import { buildKeymap, type Keymap } from '../../src/tui/keymap.js';
import { cleanEnv, runCli } from '../support/cli.js';
import { tuiPerTest } from '../support/render-tui.js';

const tui = tuiPerTest();
const CTRL_N = '\u000e';

function keymapOf(bindings: Record<string, unknown>): Keymap {
  const built = buildKeymap([{ file: '/p/.opencode.json', bindings }]);
  expect(built.errors).toEqual([]);
  return built.keymap;
}

/** Sends `first`, waits for its answer, then deletes the session with `opencode sessions delete --force`. */
async function sessionDeletedUnderneath(options: { keymap?: Keymap } = {}) {
  const t = await tui.start([{ text: 'First answer.' }, { text: 'Fresh answer.' }]);
  const r = tui.render({ sessionId: undefined, ...options });
  await r.type('first');
  await r.waitFor((f) => f.includes('> first'));
  await r.type('\r');
  await r.waitFor((f) => f.includes('First answer.') && !f.includes('esc to interrupt'));
  const sessionId = r.store.getSnapshot().session!.id;
  const deleted = await runCli(['sessions', 'delete', sessionId, '--force'], { cwd: t.dir, env: cleanEnv() });
  expect(deleted.code).toBe(0);
  expect(t.services.sessions.get(sessionId)).toBeUndefined();
  return { t, ...r };
}

describe('sending after the open session was deleted by another process', () => {
  it('keeps the message in the editor, sends nothing, and says to press ctrl+n; ctrl+n then enter sends it in a new session', async () => {
    const { t, type, waitFor, store } = await sessionDeletedUnderneath();
    await type('my precious draft');
    await waitFor((f) => f.includes('> my precious draft'));
    await type('\r');
    const refused = await waitFor((f) => f.includes('deleted by another process'));
    expect(store.getSnapshot().status).toMatchObject({
      text: 'This session was deleted by another process: press ctrl+n to start a new one; your message is still in the editor',
      level: 'error',
    });
    expect(refused).toContain('> my precious draft');
    expect(refused).not.toContain('Could not send');
    expect(t.fake.answered).toHaveLength(1);

    await type(CTRL_N);
    await waitFor((f) => !f.includes('First answer.'));
    await type('\r');
    await waitFor((f) => f.includes('Fresh answer.'));
    expect(t.fake.answered).toHaveLength(2);
    expect(t.fake.answered[1].messages[0].content[0].text).toBe('my precious draft');
  });

  it('names the new-session key as rebound', async () => {
    const rebound = await sessionDeletedUnderneath({ keymap: keymapOf({ 'session.new': 'alt+n' }) });
    await rebound.type('draft\r');
    await rebound.waitFor((f) => f.includes('deleted by another process'));
    expect(rebound.store.getSnapshot().status?.text).toBe(
      'This session was deleted by another process: press alt+n to start a new one; your message is still in the editor',
    );
  });

  it('says /new when the new-session action has no key', async () => {
    const unbound = await sessionDeletedUnderneath({ keymap: keymapOf({ 'session.new': 'none' }) });
    await unbound.type('draft\r');
    await unbound.waitFor((f) => f.includes('deleted by another process'));
    expect(unbound.store.getSnapshot().status?.text).toBe(
      'This session was deleted by another process: type /new to start a new one; your message is still in the editor',
    );
    await unbound.waitFor((f) => f.includes('> draft'));
  });
});

describe('a queued prompt whose session is deleted during the reply', () => {
  it('is held, not sent into a new session unasked: the status line says so, ↑ brings it back into the editor', async () => {
    const t = await tui.start([{ text: ['Slow ', 'first ', 'answer ', 'goes ', 'on.'], chunkDelayMs: 400 }]);
    const r = tui.render({ sessionId: undefined });
    await r.type('first');
    await r.waitFor((f) => f.includes('> first'));
    await r.type('\r');
    await r.waitFor((f) => f.includes('Slow'));
    await r.type('queued one');
    await r.waitFor((f) => f.includes('> queued one'));
    await r.type('\r');
    await r.waitFor((f) => f.includes('queued  queued one'));
    const sessionId = r.store.getSnapshot().session!.id;
    const deleted = await runCli(['sessions', 'delete', sessionId, '--force'], { cwd: t.dir, env: cleanEnv() });
    expect(deleted.code).toBe(0);
    const held = await r.waitFor((f) => f.includes('deleted by another process') && !f.includes('esc to interrupt'));
    expect(r.store.getSnapshot().status?.text).toBe(
      'This session was deleted by another process: press ctrl+n to start a new one; first take your queued message back with ↑ on an empty editor',
    );
    expect(held).toContain('queued  queued one');
    expect(t.fake.answered).toHaveLength(1);
    await r.type('\u001b[A');
    await r.waitFor((f) => f.includes('> queued one'));
    expect(r.store.getSnapshot().queue).toEqual([]);
    expect(t.fake.answered).toHaveLength(1);
  });
});
