/**
 * Terminal key sequences → {@link Key}, and binding strings (`ctrl+s`, `esc`, `shift+tab`) matched
 * against keys. Pure: the sequences are the xterm/VT ones every terminal in common use sends
 * (xterm's ctlseqs; Ink splits its input into one sequence per event).
 */

/** One key press (or one chunk of typed text). */
export interface Key {
  /**
   * `a`…`z`, `0`…`9`, other printable characters as themselves; `return`, `escape`, `tab`,
   * `backspace`, `delete`, `space`, `up`, `down`, `left`, `right`, `home`, `end`, `pageup`,
   * `pagedown`, `insert`, `f1`…`f12`; `text` for a run of several printable characters (text the
   * terminal delivered at once, e.g. a paste without bracketed paste); `unknown` otherwise.
   */
  name: string;
  ctrl: boolean;
  /** Alt/Option (sent as an ESC prefix) */
  meta: boolean;
  shift: boolean;
  /** the text the key inserts into an editor: '' for control keys and keys with ctrl/meta */
  text: string;
  /** the raw sequence */
  sequence: string;
}

const CSI_NAMES: Record<string, string> = {
  A: 'up',
  B: 'down',
  C: 'right',
  D: 'left',
  H: 'home',
  F: 'end',
  Z: 'tab', // shift+tab: ESC [ Z
  P: 'f1',
  Q: 'f2',
  R: 'f3',
  S: 'f4',
};

const TILDE_NAMES: Record<string, string> = {
  '1': 'home',
  '2': 'insert',
  '3': 'delete',
  '4': 'end',
  '5': 'pageup',
  '6': 'pagedown',
  '7': 'home',
  '8': 'end',
  '11': 'f1',
  '12': 'f2',
  '13': 'f3',
  '14': 'f4',
  '15': 'f5',
  '17': 'f6',
  '18': 'f7',
  '19': 'f8',
  '20': 'f9',
  '21': 'f10',
  '23': 'f11',
  '24': 'f12',
};

const key = (
  name: string,
  sequence: string,
  mods: Partial<Pick<Key, 'ctrl' | 'meta' | 'shift'>> = {},
  text = '',
): Key => ({
  name,
  ctrl: mods.ctrl ?? false,
  meta: mods.meta ?? false,
  shift: mods.shift ?? false,
  text,
  sequence,
});

/** xterm modifier parameter (`1 + bits`: shift 1, alt 2, ctrl 4) → flags */
function modifiers(param: string | undefined): Pick<Key, 'ctrl' | 'meta' | 'shift'> {
  const bits = Math.max(0, Number(param ?? '1') - 1);
  return { shift: (bits & 1) !== 0, meta: (bits & 2) !== 0, ctrl: (bits & 4) !== 0 };
}

/** One control byte (0x00–0x1f, 0x7f) → key. */
function controlKey(code: number, sequence: string): Key {
  if (code === 0x0d || code === 0x0a) return key('return', sequence);
  if (code === 0x09) return key('tab', sequence);
  if (code === 0x1b) return key('escape', sequence);
  if (code === 0x7f) return key('backspace', sequence);
  if (code === 0x08) return key('h', sequence, { ctrl: true }); // ctrl+h (help); backspace sends 0x7f
  if (code === 0x00) return key('space', sequence, { ctrl: true });
  if (code === 0x1f) return key('_', sequence, { ctrl: true }); // ctrl+_ (and ctrl+/ on most terminals)
  if (code >= 0x01 && code <= 0x1a) return key(String.fromCharCode(code + 0x60), sequence, { ctrl: true });
  return key('unknown', sequence);
}

/** A printable character → key (`space` for ' '). */
function printableKey(ch: string, sequence: string): Key {
  if (ch === ' ') return key('space', sequence, {}, ' ');
  const lower = ch.toLowerCase();
  return key(lower, sequence, { shift: ch !== lower }, ch);
}

/**
 * Parses one input sequence as Ink delivers it: a single key, an escape sequence, or a run of text.
 * Never throws; sequences it does not know come back as `unknown`.
 */
export function parseKey(sequence: string): Key {
  if (sequence.length === 0) return key('unknown', sequence);
  const first = sequence.codePointAt(0)!;
  if (sequence.length === 1 || (sequence.length === 2 && first > 0xffff)) {
    if (first < 0x20 || first === 0x7f) return controlKey(first, sequence);
    return printableKey(sequence, sequence);
  }
  if (first !== 0x1b) {
    // several characters at once: typed fast or pasted without bracketed paste; newlines stay text
    return key('text', sequence, {}, sequence.replace(/\r\n?/g, '\n'));
  }
  // ESC-prefixed
  const rest = sequence.slice(1);
  // CSI u (kitty / xterm modifyOtherKeys): ESC [ code ; mod u, e.g. shift+enter = ESC [ 13 ; 2 u.
  // Tested before the plain CSI form, whose pattern would also take the final `u` (and say unknown).
  const csiU = /^\[(\d+)(?:;(\d+))?u$/.exec(rest) ?? /^\[27;(\d+);(\d+)~$/.exec(rest);
  if (csiU) {
    const isModifyOtherKeys = rest.startsWith('[27;');
    const code = Number(isModifyOtherKeys ? csiU[2] : csiU[1]);
    const mods = modifiers(isModifyOtherKeys ? csiU[1] : csiU[2]);
    const base =
      code < 0x20 || code === 0x7f ? controlKey(code, sequence) : printableKey(String.fromCodePoint(code), sequence);
    return {
      ...base,
      ctrl: base.ctrl || mods.ctrl,
      meta: mods.meta,
      shift: base.shift || mods.shift,
      text: mods.ctrl || mods.meta ? '' : base.text,
    };
  }
  const csi = /^\[(?:(\d+)(?:;(\d+))?)?([A-Za-z~])$/.exec(rest) ?? /^O()()([A-Za-z])$/.exec(rest);
  if (csi) {
    const [, num, mod, final] = csi;
    if (final === '~') {
      const name = TILDE_NAMES[num ?? ''];
      return name ? key(name, sequence, modifiers(mod)) : key('unknown', sequence);
    }
    const name = CSI_NAMES[final!];
    if (!name) return key('unknown', sequence);
    // ESC [ 1 ; 5 A = ctrl+up; ESC [ Z = shift+tab
    const mods = modifiers(mod);
    if (final === 'Z') mods.shift = true;
    return key(name, sequence, mods);
  }
  if (rest.length >= 1 && !rest.startsWith('[')) {
    // Alt + key: ESC then the key (ESC ESC = escape; ESC \r = alt+enter)
    const inner = parseKey(rest);
    return { ...inner, meta: true, text: '', sequence };
  }
  return key('unknown', sequence);
}

const ALIASES: Record<string, string> = {
  esc: 'escape',
  enter: 'return',
  pgup: 'pageup',
  pgdown: 'pagedown',
  del: 'delete',
};

/**
 * True when `k` is the key a binding string names: `ctrl+s`, `esc`, `enter`, `shift+tab`,
 * `alt+enter`, `pgup`, `?`, `a`. Modifiers must match exactly (ctrl+s does not match ctrl+shift+s);
 * shift is ignored for printable characters (`?` is shift+/ on most layouts).
 */
export function matchesBinding(k: Key, binding: string): boolean {
  const parts = binding.toLowerCase().split('+');
  // a binding of `+` itself, or `ctrl++`
  const last = binding.endsWith('++') || binding === '+' ? '+' : parts[parts.length - 1]!;
  const mods = new Set(binding === '+' ? [] : parts.slice(0, binding.endsWith('++') ? -2 : -1));
  const name = ALIASES[last] ?? last;
  const want = { ctrl: mods.has('ctrl'), meta: mods.has('alt') || mods.has('meta'), shift: mods.has('shift') };
  const printable = name.length === 1 && name !== ' ';
  if (k.ctrl !== want.ctrl || k.meta !== want.meta) return false;
  if (!printable && k.shift !== want.shift) return false;
  if (printable && !want.ctrl && !want.meta) return k.text === last || (k.name === name && !k.shift && k.text === '');
  return k.name === name;
}
