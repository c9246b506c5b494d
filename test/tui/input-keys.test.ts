import { describe, expect, it } from 'vitest';
import { matchesBinding, parseKey, type Key } from '../../src/tui/input/keys.js';

const pick = (k: Key) => ({ name: k.name, ctrl: k.ctrl, meta: k.meta, shift: k.shift, text: k.text });

describe('parseKey', () => {
  it('reads ctrl+letters from control bytes', () => {
    expect(pick(parseKey('\u0001'))).toEqual({ name: 'a', ctrl: true, meta: false, shift: false, text: '' });
    expect(pick(parseKey('\u0005'))).toEqual({ name: 'e', ctrl: true, meta: false, shift: false, text: '' });
    expect(pick(parseKey('\u0012'))).toEqual({ name: 'r', ctrl: true, meta: false, shift: false, text: '' });
    expect(pick(parseKey('\u0017'))).toEqual({ name: 'w', ctrl: true, meta: false, shift: false, text: '' });
    expect(matchesBinding(parseKey('\u0006'), 'ctrl+f')).toBe(true);
    expect(matchesBinding(parseKey('\u0006'), 'f')).toBe(false);
  });

  it('reads arrows with and without modifiers', () => {
    expect(pick(parseKey('\u001b[A'))).toEqual({ name: 'up', ctrl: false, meta: false, shift: false, text: '' });
    expect(pick(parseKey('\u001bOB'))).toEqual({ name: 'down', ctrl: false, meta: false, shift: false, text: '' });
    expect(pick(parseKey('\u001b[1;3D'))).toEqual({ name: 'left', ctrl: false, meta: true, shift: false, text: '' });
    expect(pick(parseKey('\u001b[1;5C'))).toEqual({ name: 'right', ctrl: true, meta: false, shift: false, text: '' });
    expect(pick(parseKey('\u001b[1;2A'))).toEqual({ name: 'up', ctrl: false, meta: false, shift: true, text: '' });
    // ESC ESC [ D: alt+left as some terminals send it
    expect(matchesBinding(parseKey('\u001b\u001b[D'), 'alt+left')).toBe(true);
    expect(matchesBinding(parseKey('\u001b[1;3D'), 'left')).toBe(false);
  });

  it('reads shift+tab, alt+enter and the CSI-u shift+enter', () => {
    expect(pick(parseKey('\u001b[Z'))).toEqual({ name: 'tab', ctrl: false, meta: false, shift: true, text: '' });
    expect(matchesBinding(parseKey('\u001b[Z'), 'shift+tab')).toBe(true);
    expect(matchesBinding(parseKey('\u001b[Z'), 'tab')).toBe(false);
    expect(pick(parseKey('\u001b\r'))).toEqual({ name: 'return', ctrl: false, meta: true, shift: false, text: '' });
    expect(matchesBinding(parseKey('\u001b\r'), 'alt+enter')).toBe(true);
    expect(pick(parseKey('\u001b[13;2u'))).toEqual({ name: 'return', ctrl: false, meta: false, shift: true, text: '' });
    expect(matchesBinding(parseKey('\u001b[13;2u'), 'shift+enter')).toBe(true);
    expect(matchesBinding(parseKey('\u001b[27;2;13~'), 'shift+enter')).toBe(true);
    expect(matchesBinding(parseKey('\r'), 'enter')).toBe(true);
  });

  it('reads printable keys, CJK and emoji as text, and runs of text as one text key', () => {
    expect(pick(parseKey('A'))).toEqual({ name: 'a', ctrl: false, meta: false, shift: true, text: 'A' });
    expect(pick(parseKey('中'))).toEqual({ name: '中', ctrl: false, meta: false, shift: false, text: '中' });
    expect(parseKey('😀').text).toBe('😀');
    expect(pick(parseKey(' '))).toEqual({ name: 'space', ctrl: false, meta: false, shift: false, text: ' ' });
    expect(pick(parseKey('hello\r\nworld'))).toEqual({
      name: 'text',
      ctrl: false,
      meta: false,
      shift: false,
      text: 'hello\nworld',
    });
    expect(pick(parseKey('\u001bb'))).toEqual({ name: 'b', ctrl: false, meta: true, shift: false, text: '' });
    expect(parseKey('\u007f').name).toBe('backspace');
    expect(parseKey('\u001b[3~').name).toBe('delete');
    expect(parseKey('\u001b[99x').name).toBe('unknown');
  });
});
