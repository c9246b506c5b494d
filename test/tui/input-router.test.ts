import { describe, expect, it, vi } from 'vitest';
import {
  InputRouter,
  LAYER,
  PASTE_IDLE_MS,
  sanitizePaste,
  type KeyHandler,
} from '../../src/tui/input/InputProvider.js';

/** Lets the router hand over keys it held for the next turn of the event loop. */
const turn = () => new Promise((r) => setTimeout(r, 20));

const ref = <T>(current: T) => ({ current });

describe('input router layering', () => {
  it('a dialog-layer handler returning true hides the key from the editor', async () => {
    const router = new InputRouter();
    const seen: string[] = [];
    const editor: KeyHandler = (k) => {
      seen.push(`editor:${k.name}`);
      return true;
    };
    const dialog: KeyHandler = (k) => {
      seen.push(`dialog:${k.name}`);
      return k.name === 'escape';
    };
    router.addKeyHandler(LAYER.editor, ref(editor));
    const remove = router.addKeyHandler(LAYER.dialog, ref(dialog));
    router.input('\u001b');
    router.input('x');
    await turn();
    expect(seen).toEqual(['dialog:escape', 'dialog:x', 'editor:x']);
    remove();
    router.input('y');
    await turn();
    expect(seen).toEqual(['dialog:escape', 'dialog:x', 'editor:x', 'editor:y']);
  });

  it('within a layer the latest registered handler goes first', () => {
    const router = new InputRouter();
    const seen: string[] = [];
    router.addKeyHandler(
      LAYER.popup,
      ref(() => void seen.push('first')),
    );
    router.addKeyHandler(
      LAYER.popup,
      ref(() => void seen.push('second')),
    );
    router.input('a');
    expect(seen).toEqual(['second', 'first']);
  });

  it('a bracketed paste split over several events reaches only the topmost paste handler, whole', () => {
    const router = new InputRouter();
    const got: string[] = [];
    const keys: string[] = [];
    router.addPasteHandler(
      LAYER.editor,
      ref((t: string) => void got.push(`editor:${t}`)),
    );
    router.addPasteHandler(
      LAYER.dialog,
      ref((t: string) => void got.push(`dialog:${t}`)),
    );
    router.addKeyHandler(
      LAYER.editor,
      ref((k) => void keys.push(k.name)),
    );
    for (const part of ['\u001b[200~', 'line 1\r', '\nline 2', '\u001b[A', '\u001b[201~']) router.input(part);
    expect(got).toEqual(['dialog:line 1\nline 2']);
    expect(keys).toEqual([]);
  });
});

describe('sanitizePaste', () => {
  it('strips escape sequences and control characters, keeps tabs and newlines, converts CRLF', () => {
    expect(sanitizePaste('a\tb\r\nc\rd\n')).toBe('a\tb\nc\nd\n');
    expect(sanitizePaste('red \u001b[31mtext\u001b[0m done')).toBe('red text done');
    expect(sanitizePaste('title\u001b]0;evil\u0007 ok')).toBe('title ok');
    expect(sanitizePaste('bell\u0007 nul\u0000 del\u007f c1\u009b end')).toBe('bell nul del c1 end');
    expect(sanitizePaste('中文 👍🏽 ok')).toBe('中文 👍🏽 ok');
  });
});

describe('a paste whose end marker is lost', () => {
  it('is delivered after a second without input, and later keys reach the handlers again', async () => {
    vi.useFakeTimers();
    try {
      const router = new InputRouter();
      const pastes: string[] = [];
      const keys: string[] = [];
      router.addPasteHandler(0, { current: (t) => pastes.push(t) });
      router.addKeyHandler(0, { current: (k) => void keys.push(k.name) });
      router.input('\u001b[200~');
      router.input('half a paste');
      vi.advanceTimersByTime(PASTE_IDLE_MS - 1);
      expect(pastes).toEqual([]);
      vi.advanceTimersByTime(1);
      expect(pastes).toEqual(['half a paste']);
      router.input('x');
      expect(keys).toEqual(['x']);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('several keys in one read', () => {
  it('are handled one by one, a turn of the event loop apart: each key sees what the one before changed', async () => {
    const router = new InputRouter();
    const seen: string[] = [];
    router.addKeyHandler(0, {
      current: (k) => void seen.push(k.name === 'text' ? `text:${k.text}` : `${k.ctrl ? 'ctrl+' : ''}${k.name}`),
    });
    router.input('ab\u007f\u007fZ');
    // the first key at once, the rest after the app had a chance to render
    expect(seen).toEqual(['text:ab']);
    router.input('xy\u0003');
    await new Promise((r) => setTimeout(r, 100));
    expect(seen).toEqual(['text:ab', 'backspace', 'backspace', 'z', 'text:xy', 'ctrl+c']);
  });

  it('with a dialog open, a short printable run is separate presses (aaa: three answers)', async () => {
    const router = new InputRouter();
    const seen: string[] = [];
    router.addKeyHandler(LAYER.dialog, { current: (k) => (seen.push(k.name), true) });
    router.input('aaa');
    await new Promise((r) => setTimeout(r, 50));
    expect(seen).toEqual(['a', 'a', 'a']);
  });

  it('a key that opens a dialog hands the next keys of the same read to the dialog', async () => {
    const router = new InputRouter();
    const editor: string[] = [];
    const dialog: string[] = [];
    router.addKeyHandler(LAYER.editor, { current: (k) => void editor.push(k.name) });
    router.addKeyHandler(LAYER.global, {
      current: (k) => {
        if (!(k.ctrl && k.name === 'k')) return false;
        // as a dialog mounting in the next render does
        setImmediate(() => router.addKeyHandler(LAYER.dialog, { current: (d) => (dialog.push(d.name), true) }));
        return true;
      },
    });
    router.input('\u000b');
    router.input('\u001b[B');
    router.input('\r');
    await new Promise((r) => setTimeout(r, 100));
    expect(dialog).toEqual(['down', 'return']);
    expect(editor).toEqual([]);
  });

  it('a long printable run stays one text event (a paste without bracketed paste)', () => {
    const router = new InputRouter();
    const seen: string[] = [];
    router.addKeyHandler(0, { current: (k) => void seen.push(k.name) });
    router.input('x'.repeat(100));
    expect(seen).toEqual(['text']);
  });
});
