/**
 * `keybindings` in .opencode.json laid over the table: rebinding, unbinding, a later
 * file winning, and one exact line per problem: unknown actions and unreadable keys (errors), two
 * actions on one key where both listen, keys terminals do not send (warnings).
 */
import { describe, expect, it } from 'vitest';
import { parseKey } from '../../src/tui/input/keys.js';
import { buildKeymap, parseKeyString } from '../../src/tui/keymap.js';

const GLOBAL = '/home/u/.opencode.json';
const PROJECT = '/p/.opencode.json';

describe('buildKeymap', () => {
  it('rebinds an action to one key or a list; the old key no longer triggers it', () => {
    const { keymap, errors, warnings } = buildKeymap([
      { file: PROJECT, bindings: { 'session.new': ['ctrl+b', 'alt+n'], 'app.logs': 'f2' } },
    ]);
    expect([errors, warnings]).toEqual([[], []]);
    expect(keymap.keys('session.new')).toEqual(['ctrl+b', 'alt+n']);
    expect(keymap.matches(parseKey('\u0002'), 'session.new')).toBe(true); // ctrl+b
    expect(keymap.matches(parseKey('\u001bn'), 'session.new')).toBe(true); // alt+n
    expect(keymap.matches(parseKey('\u000e'), 'session.new')).toBe(false); // ctrl+n, the default
    expect(keymap.matches(parseKey('\u001bOQ'), 'app.logs')).toBe(true); // f2
    expect(keymap.keys('model.list')).toEqual(['ctrl+o']); // untouched
  });

  it('"none" and [] unbind; hints then have no key', () => {
    const { keymap, errors } = buildKeymap([{ file: PROJECT, bindings: { 'app.logs': 'none', 'theme.list': [] } }]);
    expect(errors).toEqual([]);
    expect(keymap.keys('app.logs')).toEqual([]);
    expect(keymap.hint('app.logs')).toBeUndefined();
    expect(keymap.matches(parseKey('\u000c'), 'app.logs')).toBe(false);
    expect(keymap.keys('theme.list')).toEqual([]);
  });

  it("the project's file replaces the global file's keys for the same action", () => {
    const { keymap } = buildKeymap([
      { file: GLOBAL, bindings: { 'session.new': 'alt+n', 'model.list': 'alt+m' } },
      { file: PROJECT, bindings: { 'session.new': 'ctrl+b' } },
    ]);
    expect(keymap.keys('session.new')).toEqual(['ctrl+b']);
    expect(keymap.keys('model.list')).toEqual(['alt+m']);
  });

  it('spellings are read as matchesBinding reads them and kept in one form', () => {
    const { keymap } = buildKeymap([
      { file: PROJECT, bindings: { 'dialog.close': ['Escape', 'Ctrl+Q'], 'app.help': 'ctrl+_' } },
    ]);
    expect(keymap.keys('dialog.close')).toEqual(['esc', 'ctrl+q']);
    expect(keymap.keys('app.help')).toEqual(['ctrl+/']);
    expect(keymap.matches(parseKey('\u001f'), 'app.help')).toBe(true);
  });

  it('an unknown action and an unreadable key are one error line each, naming the file and the action', () => {
    const { keymap, errors } = buildKeymap([
      {
        file: PROJECT,
        bindings: {
          'session.nwe': 'ctrl+b',
          'frobnicate.all': 'x',
          'model.list': ['ctrl+foo', 'alt+m'],
          'app.logs': 'shift+l',
          'theme.list': 3,
        },
      },
    ]);
    expect(errors).toEqual([
      '/p/.opencode.json: keybindings.session.nwe: unknown action (did you mean session.new?); `opencode keybindings` lists them',
      '/p/.opencode.json: keybindings.frobnicate.all: unknown action; `opencode keybindings` lists them',
      '/p/.opencode.json: keybindings.model.list: "ctrl+foo" is not a key: "foo" is not a key name (a character, or esc, enter, tab, backspace, delete, space, up, down, left, right, home, end, pgup, pgdown, insert, f1…f12)',
      '/p/.opencode.json: keybindings.app.logs: "shift+l" is not a key: shift with a character cannot be bound: terminals send the shifted character itself (bind "?" rather than "shift+/")',
      '/p/.opencode.json: keybindings.theme.list: expected a key ("ctrl+n"), a list of keys (["ctrl+n", "alt+n"]) or "none"',
    ]);
    // an action with a bad value keeps its keys
    expect(keymap.keys('model.list')).toEqual(['ctrl+o']);
  });

  it('two actions on one key that listen together is a warning naming both; in different places it is fine', () => {
    const { warnings } = buildKeymap([{ file: PROJECT, bindings: { 'session.new': 'ctrl+o', 'dialog.close': 'q' } }]);
    // dialog.close on q meets no other q in the list dialogs (q is logs.back's on the logs page)
    expect(warnings).toEqual([
      '/p/.opencode.json: ctrl+o is bound to both model.list and session.new (chat page); only one of them will run: bind one to another key',
    ]);
  });

  it('warns about keys terminals deliver as another key', () => {
    const { warnings } = buildKeymap([
      {
        file: PROJECT,
        bindings: { 'app.help': 'ctrl+?', 'editor.open': 'ctrl+i', 'editor.submit': ['enter', 'ctrl+enter'] },
      },
    ]);
    expect(warnings).toEqual([
      '/p/.opencode.json: keybindings.app.help: ctrl+? arrives as backspace in xterm and tmux',
      '/p/.opencode.json: keybindings.editor.open: ctrl+i arrives as tab',
      '/p/.opencode.json: keybindings.editor.submit: ctrl+enter arrives as enter in most terminals (only the kitty keyboard protocol tells it apart)',
    ]);
  });
});

describe('parseKeyString', () => {
  it.each([
    ['ctrl+s', 'ctrl+s'],
    ['alt+shift+up', 'alt+shift+up'],
    ['shift+alt+up', 'alt+shift+up'],
    ['meta+x', 'alt+x'],
    ['pageup', 'pgup'],
    ['return', 'enter'],
    ['?', '?'],
    ['+', '+'],
    ['ctrl++', 'ctrl++'],
    ['ctrl+shift+a', 'ctrl+a'], // a terminal sends the same byte
    ['F12', 'f12'],
    ['Ctrl+Q', 'ctrl+q'],
  ])('%s reads as %s', (text, canonical) => {
    expect(parseKeyString(text)).toEqual({ ok: true, canonical });
  });

  it.each([
    ['', 'an empty key'],
    ['ctrl+', 'no key after the modifiers'],
    ['hyper+a', '"hyper" is not a modifier (ctrl, alt, shift)'],
    ['A', 'capital "A": terminals send it as shift+a, which cannot be bound; use "a"'],
  ])('%j is refused: %s', (text, problem) => {
    expect(parseKeyString(text)).toEqual({ ok: false, problem });
  });
});
