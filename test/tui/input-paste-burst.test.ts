/**
 * Pastes without bracketed-paste markers: a burst of lines is one paste, never a
 * prompt per line; a lone Enter after a pause still sends at once. The router is driven with its
 * own clock (when each read arrives) and real timers (the end of a burst).
 */
import { describe, expect, it } from 'vitest';
import { InputRouter } from '../../src/tui/input/InputProvider.js';
import {
  BURST_GAP_MS,
  classifyBurst,
  ENTER_AFTER_INPUT_MS,
  MAX_TYPED_AHEAD,
  startsBurst,
} from '../../src/tui/input/paste-burst.js';

/** Longer than a burst's end (BURST_GAP_MS and a turn) plus the router's one-key-per-turn drain. */
const settle = () => new Promise((r) => setTimeout(r, BURST_GAP_MS * 4));

function setup() {
  let clock = 1_000;
  const router = new InputRouter(() => clock);
  const events: string[] = [];
  router.addKeyHandler(0, {
    current: (k) => void events.push(k.name === 'text' ? `text:${k.text}` : k.text || k.name),
  });
  router.addPasteHandler(0, { current: (t) => void events.push(`paste:${t}`) });
  /** one read arriving `afterMs` after the previous one */
  const read = (sequence: string, afterMs = 0) => {
    clock += afterMs;
    router.input(sequence);
  };
  return { router, events, read };
}

describe('classifyBurst', () => {
  const rows: Array<[burst: string, afterPaste: boolean, kind: 'paste' | 'keys', why: string]> = [
    ['yes\r', false, 'keys', 'typed ahead, then Enter: sends'],
    ['\r', false, 'keys', 'an Enter held because it came fast: sends'],
    ['\u007f\r', false, 'keys', 'backspace and Enter typed ahead'],
    ['line 1\rline 2', false, 'paste', 'text after a line break'],
    ['line 1\rline 2\r', false, 'paste', 'two line breaks'],
    ['line 1\r\nline 2', false, 'paste', 'CRLF'],
    ['\r\r', false, 'paste', 'two Enters in one burst'],
    ['npm test\r', false, 'keys', 'one short line and Enter'],
    [`${'x'.repeat(MAX_TYPED_AHEAD)}\r`, false, 'keys', 'as long as typing ahead goes'],
    [`${'x'.repeat(MAX_TYPED_AHEAD + 1)}\r`, false, 'paste', 'a longer line is a pasted one'],
    ['last line\r', true, 'paste', 'the tail of a paste that stalled'],
  ];
  it.each(rows)('%j (after a paste: %s) is %s: %s', (burst, afterPaste, kind) => {
    expect(classifyBurst(burst, afterPaste)).toBe(kind);
  });
});

describe('startsBurst', () => {
  const rows: Array<[sequence: string, sincePrevious: number, starts: boolean, why: string]> = [
    ['\r', 500, false, 'a lone Enter after a pause sends at once'],
    ['\r', ENTER_AFTER_INPUT_MS + 1, false, "a fast typist's Enter"],
    ['\r', ENTER_AFTER_INPUT_MS, true, 'an Enter right after other input'],
    ['a\rb', 500, true, 'text and a line break in one read'],
    ['yes\r', 500, true, 'text and Enter in one read (decided when the reads stop)'],
    ['\u001b\r', 0, false, 'alt+enter'],
    ['abc', 0, false, 'text without a line break'],
  ];
  it.each(rows)('%j (%d ms after input) → %s: %s', (sequence, sincePrevious, starts) => {
    expect(startsBurst(sequence, sincePrevious)).toBe(starts);
  });
});

describe('input router: a paste without markers', () => {
  it('5,000 lines in 4 KB reads 1 ms apart are one paste, with not one key', async () => {
    const { events, read } = setup();
    const lines = Array.from({ length: 5_000 }, (_, i) => `line ${i + 1} of the pasted text`);
    const raw = lines.join('\r') + '\r';
    for (let at = 0; at < raw.length; at += 4095) read(raw.slice(at, at + 4095), 1);
    expect(events).toEqual([]);
    await settle();
    expect(events).toEqual([`paste:${lines.join('\n')}\n`]);
  });

  it('reads that split the text right after a line break still make one paste', async () => {
    const { events, read } = setup();
    read('first line\r', 500);
    read('second line\r', 2);
    read('\r', 2);
    read('third', 2);
    await settle();
    expect(events).toEqual(['paste:first line\nsecond line\n\nthird']);
  });

  it('a line typed before the paste stays typed; an Enter that comes right after it starts the paste', async () => {
    const { events, read } = setup();
    read('draft ', 500);
    read('\r', 2);
    read('pasted', 1);
    await settle();
    expect(events).toEqual(['text:draft ', 'paste:\npasted']);
  });

  it('a lone Enter after a pause is handled at once, not held', async () => {
    const { events, read } = setup();
    read('hi', 500);
    // the router's drain after a key: a microtask, then an immediate (after React's render)
    await new Promise((r) => setImmediate(() => setImmediate(r)));
    read('\r', 150);
    // in the same turn: nothing waited for a burst's end
    expect(events).toEqual(['text:hi', 'return']);
  });

  it('text and Enter typed ahead in one read are keys: the text, then Enter', async () => {
    const { events, read } = setup();
    read('yes\r', 500);
    expect(events).toEqual([]);
    await settle();
    expect(events).toEqual(['text:yes', 'return']);
  });

  it('the tail of a paste that stalled past the gap is still the paste, not a sent line', async () => {
    const { events, read } = setup();
    read('one\rtwo\r', 500);
    await settle();
    // the machine was busy: the last line comes later than a burst's gap, but soon after the paste
    read('three\r', 1);
    await settle();
    expect(events).toEqual(['paste:one\ntwo\n', 'paste:three\n']);
    // a person's Enter sends, even right after the paste shows
    read('\r', 60);
    expect(events.at(-1)).toBe('return');
  });

  it('a key sent as an escape sequence ends a held Enter: Enter then ↓ pressed at once are two keys', async () => {
    const { events, read } = setup();
    read('x', 500);
    read('\r', 1);
    read('\u001b[B', 1);
    await settle();
    expect(events).toEqual(['x', 'return', 'down']);
  });

  it('a bracketed paste is still delivered by its markers, whatever its timing', async () => {
    const { events, read } = setup();
    read('\u001b[200~', 500);
    read('a\rb', 0);
    read('\r', 0);
    read('\u001b[201~', 0);
    await settle();
    expect(events).toEqual(['paste:a\nb\n']);
  });
});
