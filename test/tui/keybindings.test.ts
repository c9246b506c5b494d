import { describe, expect, it } from 'vitest';
import { parseKey } from '../../src/tui/input/keys.js';
import { BINDINGS, BINDING_SCOPES, bindingFor, formatKeys, matches } from '../../src/tui/keybindings.js';

describe('keybindings table', () => {
  it('has unique ids, known scopes and at least one key each', () => {
    const ids = BINDINGS.map((b) => b.id);
    expect(new Set(ids).size).toBe(ids.length);
    const scopes = new Set(BINDING_SCOPES.map((s) => s.scope));
    for (const b of BINDINGS) {
      expect(scopes.has(b.scope), b.id).toBe(true);
      expect(b.keys.length, b.id).toBeGreaterThan(0);
      expect(b.description.length, b.id).toBeGreaterThan(0);
    }
  });

  it("holds the reference's bindings and the port's additions", () => {
    const table = Object.fromEntries(BINDINGS.map((b) => [b.id, [b.scope, ...b.keys].join(' ')]));
    expect(table).toMatchObject({
      quit: 'global ctrl+c',
      help: 'global ctrl+_ ctrl+h',
      help_busy: 'global ?',
      logs: 'global ctrl+l',
      sessions: 'global ctrl+s',
      commands: 'global ctrl+k',
      models: 'global ctrl+o',
      themes: 'global ctrl+t',
      attach: 'global ctrl+f',
      new_session: 'chat ctrl+n',
      cancel: 'chat esc',
      toggle_thinking: 'chat ctrl+y',
      completion: 'chat @',
      send: 'editor enter',
      newline: 'editor shift+enter alt+enter',
      external_editor: 'editor ctrl+e',
      remove_attachment: 'editor ctrl+r',
      page_up: 'messages pgup',
      page_down: 'messages pgdown',
      half_page_up: 'messages ctrl+u',
      half_page_down: 'messages ctrl+d',
      logs_back: 'dialog esc q backspace',
    });
  });

  it('bindingFor gives the keys, as a copy', () => {
    expect(bindingFor('help')).toEqual(['ctrl+_', 'ctrl+h']);
    bindingFor('help').push('x');
    expect(bindingFor('help')).toEqual(['ctrl+_', 'ctrl+h']);
    expect(formatKeys(bindingFor('newline'))).toBe('shift+enter / alt+enter');
  });
});

describe('matches', () => {
  it.each([
    ['\u0013', 'sessions', true], // ctrl+s
    ['\u001f', 'help', true], // ctrl+_ (ctrl+/ on most terminals)
    ['\u0008', 'help', true], // ctrl+h
    ['?', 'help_busy', true],
    ['/', 'help_busy', false],
    ['\u0019', 'toggle_thinking', true], // ctrl+y
    ['\u000c', 'logs', true], // ctrl+l
    ['\u0012', 'remove_attachment', true], // ctrl+r
    ['\r', 'send', true],
    ['\r', 'newline', false],
    ['\u001b\r', 'newline', true], // alt+enter
    ['\u001b[13;2u', 'newline', true], // shift+enter, CSI u
    ['\u001b[27;2;13~', 'newline', true], // shift+enter, modifyOtherKeys
    ['\u001b', 'cancel', true],
    ['@', 'completion', true],
    ['\u001b[5~', 'page_up', true],
    ['\u0015', 'half_page_up', true], // ctrl+u
    ['k', 'dialog_up', true],
    ['K', 'dialog_up', false],
    ['\u001b[A', 'dialog_up', true],
    ['\t', 'button_next', true],
    ['\u001b[Z', 'button_next', false], // shift+tab
    ['\u001b[Z', 'button_previous', true],
    [' ', 'button_press', true],
    ['q', 'logs_back', true],
    ['\u007f', 'logs_back', true],
  ] as const)('%j is %s: %s', (sequence, id, expected) => {
    expect(matches(parseKey(sequence), id)).toBe(expected);
  });
});
