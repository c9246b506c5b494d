import { describe, expect, it } from 'vitest';
import { parseKey } from '../../src/tui/input/keys.js';
import { BINDINGS, BINDING_SCOPES, KEY_CONTEXTS, formatKeys } from '../../src/tui/keybindings.js';
import { DEFAULT_KEYMAP, buildKeymap } from '../../src/tui/keymap.js';

describe('keybindings table', () => {
  it('has unique action names of the form area.verb, known scopes and at least one key each', () => {
    const actions = BINDINGS.map((b) => b.action);
    expect(new Set(actions).size).toBe(actions.length);
    const scopes = new Set(BINDING_SCOPES.map((s) => s.scope));
    for (const b of BINDINGS) {
      expect(b.action, b.action).toMatch(/^[a-z_]+\.[a-z_]+$/);
      expect(scopes.has(b.scope), b.action).toBe(true);
      expect(b.keys.length, b.action).toBeGreaterThan(0);
      expect(b.description.length, b.action).toBeGreaterThan(0);
    }
  });

  it('every scope is in a conflict context, so a new row is checked', () => {
    const covered = new Set(KEY_CONTEXTS.flatMap((c) => c.scopes));
    for (const { scope } of BINDING_SCOPES) expect(covered.has(scope), scope).toBe(true);
  });

  it("holds the reference's bindings and the port's additions", () => {
    const table = Object.fromEntries(BINDINGS.map((b) => [b.action, [b.scope, ...b.keys].join(' ')]));
    expect(table).toMatchObject({
      'app.quit': 'global ctrl+c',
      'app.help': 'global ctrl+/ ctrl+h',
      'app.help_busy': 'global ?',
      'app.logs': 'global ctrl+l',
      'session.list': 'global ctrl+s',
      'command.list': 'global ctrl+k',
      'model.list': 'global ctrl+o',
      'theme.list': 'global ctrl+t',
      'attachment.add': 'global ctrl+f',
      'session.new': 'chat ctrl+n',
      'session.interrupt': 'chat esc',
      'messages.toggle_thinking': 'chat ctrl+y',
      'editor.submit': 'editor enter',
      'editor.newline': 'editor shift+enter alt+enter',
      'editor.open': 'editor ctrl+e',
      'attachment.remove': 'editor ctrl+r',
      'messages.page_up': 'messages pgup',
      'messages.page_down': 'messages pgdown',
      'messages.half_page_up': 'messages ctrl+alt+u',
      'messages.half_page_down': 'messages ctrl+d',
      'permission.deny': 'permission d esc',
      'permission.allow_always': 'permission p',
      'logs.back': 'logs esc q backspace',
    });
  });

  it('the default table has no two actions on one key in any context', () => {
    // the check only reports conflicts a config file caused: lay the whole table over itself as "config"
    const all = Object.fromEntries(BINDINGS.map((b) => [b.action, [...b.keys]]));
    const built = buildKeymap([{ file: 'table', bindings: all }]);
    expect(built.errors).toEqual([]);
    expect(built.warnings).toEqual([]);
  });

  it('keys gives the keys in effect, as a copy; formatKeys joins them', () => {
    expect(DEFAULT_KEYMAP.keys('app.help')).toEqual(['ctrl+/', 'ctrl+h']);
    DEFAULT_KEYMAP.keys('app.help').push('x');
    expect(DEFAULT_KEYMAP.keys('app.help')).toEqual(['ctrl+/', 'ctrl+h']);
    expect(formatKeys(DEFAULT_KEYMAP.keys('editor.newline'))).toBe('shift+enter, alt+enter');
    expect(formatKeys([])).toBe('none');
  });
});

describe('DEFAULT_KEYMAP.matches', () => {
  it.each([
    ['\u0013', 'session.list', true], // ctrl+s
    ['\u001f', 'app.help', true], // ctrl+/ as xterm and tmux send it (0x1f, read as ctrl+_)
    ['\u001b[47;5u', 'app.help', true], // ctrl+/ with the kitty keyboard protocol
    ['\u0008', 'app.help', true], // ctrl+h
    ['\u007f', 'app.help', false], // what ctrl+? sends in xterm: backspace
    ['?', 'app.help_busy', true],
    ['/', 'app.help_busy', false],
    ['\u0019', 'messages.toggle_thinking', true], // ctrl+y
    ['\u000c', 'app.logs', true], // ctrl+l
    ['\u0012', 'attachment.remove', true], // ctrl+r
    ['\r', 'editor.submit', true],
    ['\r', 'editor.newline', false],
    ['\u001b\r', 'editor.newline', true], // alt+enter
    ['\u001b[13;2u', 'editor.newline', true], // shift+enter, CSI u
    ['\u001b[27;2;13~', 'editor.newline', true], // shift+enter, modifyOtherKeys
    ['\u001b', 'session.interrupt', true],
    ['\u001b', 'permission.deny', true],
    ['d', 'permission.deny', true],
    ['p', 'permission.allow_always', true],
    ['\u001b[5~', 'messages.page_up', true],
    ['\u0015', 'messages.half_page_up', false], // ctrl+u: the input box's
    ['\u001b\u0015', 'messages.half_page_up', true], // ctrl+alt+u
    ['k', 'dialog.up', true],
    ['K', 'dialog.up', false],
    ['\u001b[A', 'dialog.up', true],
    ['\u001b[H', 'dialog.first', true], // home
    ['\t', 'button.next', true],
    ['\u001b[Z', 'button.next', false], // shift+tab
    ['\u001b[Z', 'button.previous', true],
    [' ', 'button.press', true],
    ['q', 'logs.back', true],
    ['\u007f', 'logs.back', true],
  ] as const)('%j is %s: %s', (sequence, action, expected) => {
    expect(DEFAULT_KEYMAP.matches(parseKey(sequence), action)).toBe(expected);
  });
});
