/**
 * The input router holds the keys that reach a handler whose content is still loading (useKeys'
 * `loading`, WhileLoading): `ctrl+o ↓ enter` in one read, the models still being listed, lost the ↓
 * and the enter on an empty list. Held keys are handed over in order once the content is there; esc
 * (`now`) acts at once and drops them; a handler that goes away drops them.
 */
import { describe, expect, it } from 'vitest';
import { InputRouter, LAYER, type KeyHandler, type WhileLoading } from '../../src/tui/input/InputProvider.js';
import type { Key } from '../../src/tui/input/keys.js';

/** Lets the router hand over the keys it queued for later turns of the event loop. */
const turns = () => new Promise((r) => setTimeout(r, 50));

const ref = <T>(current: T) => ({ current });
const name = (k: Key) => (k.name === 'text' ? k.text : `${k.ctrl ? 'ctrl+' : ''}${k.name}`);

/** A router with an editor at the bottom and a loading list above it, each recording what it got. */
function setup(
  options: { listLayer?: number; whileLoading?: (key: Key) => WhileLoading; listTakes?: (key: Key) => boolean } = {},
) {
  const router = new InputRouter();
  const seen: string[] = [];
  const editor: KeyHandler = (k) => (seen.push(`editor:${name(k)}`), true);
  const list: KeyHandler = (k) => {
    seen.push(`list:${name(k)}`);
    return options.listTakes?.(k) ?? true;
  };
  router.addKeyHandler(LAYER.editor, ref(editor));
  const loading = ref<((key: Key) => WhileLoading) | undefined>(
    options.whileLoading ?? ((k) => (k.name === 'escape' ? 'now' : 'wait')),
  );
  const remove = router.addKeyHandler(options.listLayer ?? LAYER.dialog, ref(list), loading);
  const load = () => {
    loading.current = undefined;
    router.loaded(loading);
  };
  return { router, seen, load, remove };
}

describe('keys held for a list that loads', () => {
  it('reach it in order once it has loaded, and the keys after them go on as usual', async () => {
    const { router, seen, load } = setup();
    for (const key of ['\u001b[B', '\u001b[B', 'x', '\u001b[A']) router.input(key);
    await turns();
    expect(seen).toEqual([]);
    expect(router.holding).toBe(true);
    load();
    expect(seen).toEqual([]); // the first in the next turn, after the render that showed the list
    await turns();
    expect(seen).toEqual(['list:down', 'list:down', 'list:x', 'list:up']);
    expect(router.holding).toBe(false);
  });

  it('input read after the list loaded comes after the held keys', async () => {
    const { router, seen, load } = setup();
    router.input('\u001b[B');
    await turns();
    load();
    router.input('\u001b[A');
    await turns();
    expect(seen).toEqual(['list:down', 'list:up']);
  });

  it('esc acts at once and drops the keys held before it; the keys after it are handled as usual', async () => {
    const { router, seen } = setup();
    router.input('\u001b[B');
    router.input('\r');
    await turns();
    router.input('\u001b');
    expect(seen).toEqual(['list:escape']);
    expect(router.holding).toBe(false);
  });

  it('a key taken at once by a handler above the list (ctrl+c: the quit question) drops what was held', async () => {
    const { router, seen } = setup();
    router.addKeyHandler(
      LAYER.dialog + 1,
      ref((k: Key) => (k.ctrl && k.name === 'c' ? (seen.push('quit'), true) : false)),
    );
    router.input('\u001b[B');
    await turns();
    router.input('\u0003');
    expect(seen).toEqual(['quit']);
    expect(router.holding).toBe(false);
  });

  it('a handler that goes away while loading drops the keys held for it: they never reach what is below', async () => {
    const { router, seen, remove } = setup();
    router.input('\u001b[B');
    router.input('\r');
    await turns();
    remove();
    expect(router.holding).toBe(false);
    router.input('y');
    await turns();
    expect(seen).toEqual(['editor:y']);
  });

  it('`pass` keys go through while nothing is held, and wait behind held keys (a popup over the editor)', async () => {
    // a completion list: ↓ waits for the candidates; letters are the editor's
    const { router, seen, load } = setup({
      listLayer: LAYER.popup,
      whileLoading: (k) => (k.name === 'down' ? 'wait' : 'pass'),
      listTakes: (k) => k.name === 'down',
    });
    router.input('a');
    expect(seen).toEqual(['list:a', 'editor:a']);
    router.input('\u001b[B');
    router.input('b');
    await turns();
    expect(seen).toEqual(['list:a', 'editor:a']);
    load();
    await turns();
    expect(seen).toEqual(['list:a', 'editor:a', 'list:down', 'list:b', 'editor:b']);
  });

  it('a paste after held keys waits behind them', async () => {
    const { router, seen, load } = setup();
    const pastes: string[] = [];
    router.addPasteHandler(
      LAYER.editor,
      ref((text: string) => void pastes.push(text)),
    );
    router.input('\u001b[B');
    router.input('\u001b[200~');
    router.input('pasted');
    router.input('\u001b[201~');
    await turns();
    expect(pastes).toEqual([]);
    load();
    await turns();
    expect(seen).toEqual(['list:down']);
    expect(pastes).toEqual(['pasted']);
  });

  it('a held key is not the last key delivered until it is (the typeahead guard reads that clock)', async () => {
    let clock = 0;
    const router = new InputRouter(() => clock);
    const loading = ref<((key: Key) => WhileLoading) | undefined>(() => 'wait');
    router.addKeyHandler(
      LAYER.editor,
      ref(() => true),
    );
    router.input('a');
    expect([router.lastKeyAt, router.lastKey?.text]).toEqual([0, 'a']);
    router.addKeyHandler(
      LAYER.dialog,
      ref(() => true),
      loading,
    );
    clock = 5;
    router.input('b');
    expect([router.lastKeyAt, router.lastKey?.text]).toEqual([0, 'a']);
    clock = 9;
    loading.current = undefined;
    router.loaded(loading);
    await turns();
    expect([router.lastKeyAt, router.lastKey?.text]).toEqual([9, 'b']);
  });

  it('a handler that is not loading never holds, and loaded() for it changes nothing', async () => {
    const router = new InputRouter();
    const seen: string[] = [];
    const loading = ref<((key: Key) => WhileLoading) | undefined>(undefined);
    router.addKeyHandler(
      LAYER.dialog,
      ref((k: Key) => (seen.push(name(k)), true)),
      loading,
    );
    router.input('\u001b[B');
    router.loaded(loading);
    await turns();
    expect(seen).toEqual(['down']);
    expect(router.holding).toBe(false);
  });
});
