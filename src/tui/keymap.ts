/**
 * The keys in effect: the table of keybindings.ts with the person's `keybindings` from
 * `.opencode.json` laid over it. Pure: {@link buildKeymap} takes the files' values and
 * returns the keymap with one line per problem; the CLI prints them, the TUI reads the keymap
 * through keymap-context.tsx.
 *
 * Problems, each one line naming the file and the action:
 * - errors: an action that does not exist, a value that is not a key or list of keys, a key string
 *   that cannot be read (`ctrl+foo`, `shift+a`);
 * - warnings: two actions on one key where both listen at once ({@link KEY_CONTEXTS}), a key
 *   terminals do not send as itself (`ctrl+?` arrives as backspace; table {@link TERMINAL_LIMITS}).
 */
import { matchesBinding, type Key } from './input/keys.js';
import { BINDINGS, KEY_CONTEXTS, type ActionName, type Binding } from './keybindings.js';

/** The keys each action answers to. Build with {@link buildKeymap}; {@link DEFAULT_KEYMAP} is the table's. */
export class Keymap {
  private readonly bound: ReadonlyMap<string, readonly string[]>;

  /** @param keys action → key strings (already checked with {@link parseKeyString}) */
  constructor(keys: ReadonlyMap<string, readonly string[]>) {
    this.bound = keys;
  }

  /** The keys of `action` (a copy), e.g. `keys('app.help')` → `['ctrl+/', 'ctrl+h']`; `[]` when unbound. */
  keys(action: ActionName): string[] {
    return [...(this.bound.get(action) ?? [])];
  }

  /** The key hints show for `action` (its first), or undefined when the action has no key. */
  hint(action: ActionName): string | undefined {
    return this.bound.get(action)?.[0];
  }

  /** True when `key` is one of the keys of `action`. */
  matches(key: Key, action: ActionName): boolean {
    const keys = this.bound.get(action);
    if (!keys) return false;
    for (const binding of keys) {
      if (matchesBinding(key, binding)) return true;
      // ctrl+/ and ctrl+_ are one byte (0x1f) to a terminal; with the kitty protocol ctrl+/ is itself
      const twin = CTRL_SLASH_TWINS[binding];
      if (twin && matchesBinding(key, twin)) return true;
    }
    return false;
  }
}

const CTRL_SLASH_TWINS: Record<string, string> = { 'ctrl+/': 'ctrl+_', 'ctrl+_': 'ctrl+/' };

/** The table's own keys, no config applied. */
export const DEFAULT_KEYMAP = new Keymap(new Map(BINDINGS.map((b: Binding) => [b.action, b.keys])));

/** Named keys a binding may use (besides one character), with their other spellings. */
const NAMED_KEYS: Record<string, string> = {
  esc: 'esc',
  escape: 'esc',
  enter: 'enter',
  return: 'enter',
  tab: 'tab',
  backspace: 'backspace',
  delete: 'delete',
  del: 'delete',
  space: 'space',
  up: 'up',
  down: 'down',
  left: 'left',
  right: 'right',
  home: 'home',
  end: 'end',
  pgup: 'pgup',
  pageup: 'pgup',
  pgdown: 'pgdown',
  pagedown: 'pgdown',
  insert: 'insert',
  ...Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`f${i + 1}`, `f${i + 1}`])),
};

const MODIFIERS: Record<string, 'ctrl' | 'alt' | 'shift'> = {
  ctrl: 'ctrl',
  control: 'ctrl',
  alt: 'alt',
  meta: 'alt',
  option: 'alt',
  shift: 'shift',
};

/** A key string read: its canonical form (`ctrl+alt+shift+name`, names as in {@link NAMED_KEYS}). */
export type ParsedKey = { ok: true; canonical: string } | { ok: false; problem: string };

/**
 * Reads a key string in `matchesBinding`'s syntax: modifiers `ctrl`, `alt` (or `meta`), `shift`
 * joined by `+` to one character or a named key. `ctrl+/` and `ctrl+_` read as `ctrl+/` (one byte
 * to a terminal). Refused: unknown names (`ctrl+foo`), a key without a name (`ctrl+`), capitals and
 * `shift+` with a character (a terminal sends the character itself: bind `?`, not `shift+/`).
 */
export function parseKeyString(text: string): ParsedKey {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, problem: 'an empty key' };
  // `+` alone and `ctrl++` name the plus key
  const plusKey = trimmed === '+' || trimmed.endsWith('++');
  const parts = plusKey ? [...trimmed.slice(0, -1).split('+').slice(0, -1), '+'] : trimmed.split('+');
  const name = parts.pop()!;
  const mods = new Set<'ctrl' | 'alt' | 'shift'>();
  for (const part of parts) {
    const mod = MODIFIERS[part.toLowerCase()];
    if (!mod) return { ok: false, problem: `"${part}" is not a modifier (ctrl, alt, shift)` };
    mods.add(mod);
  }
  if (name === '') return { ok: false, problem: 'no key after the modifiers' };
  let canonicalName: string;
  if ([...name].length === 1) {
    const chord = mods.has('ctrl') || mods.has('alt');
    // with ctrl or alt a letter's case is not seen (matchesBinding lower-cases it): ctrl+Q is ctrl+q
    if (!chord && name !== name.toLowerCase())
      return {
        ok: false,
        problem: `capital "${name}": terminals send it as shift+${name.toLowerCase()}, which cannot be bound; use "${name.toLowerCase()}"`,
      };
    if (mods.has('shift') && !mods.has('ctrl') && !mods.has('alt')) {
      return {
        ok: false,
        problem: `shift with a character cannot be bound: terminals send the shifted character itself (bind "?" rather than "shift+/")`,
      };
    }
    if (name === ' ') canonicalName = 'space';
    else canonicalName = name === '_' && mods.has('ctrl') ? '/' : chord ? name.toLowerCase() : name;
    // shift is not seen with ctrl or alt and a character (matchesBinding ignores it there)
    mods.delete('shift');
  } else {
    const named = NAMED_KEYS[name.toLowerCase()];
    if (!named) return { ok: false, problem: `"${name}" is not a key name (a character, or ${KEY_NAME_LIST})` };
    canonicalName = named;
  }
  const order = (['ctrl', 'alt', 'shift'] as const).filter((m) => mods.has(m));
  return { ok: true, canonical: [...order, canonicalName].join('+') };
}

const KEY_NAME_LIST =
  'esc, enter, tab, backspace, delete, space, up, down, left, right, home, end, pgup, pgdown, insert, f1…f12';

/**
 * Keys a terminal does not deliver as themselves (xterm, VTE, tmux; in raw mode, without the kitty
 * keyboard protocol): binding one is a warning, since the key will seldom or never arrive. Keyed by
 * the canonical form of {@link parseKeyString}.
 */
export const TERMINAL_LIMITS: Readonly<Record<string, string>> = {
  'ctrl+?': 'arrives as backspace in xterm and tmux', // xterm sends DEL (0x7f) for ctrl+?
  'ctrl+i': 'arrives as tab', // 0x09
  'ctrl+m': 'arrives as enter', // 0x0d
  'ctrl+j': 'arrives as enter', // 0x0a, read as enter
  'ctrl+[': 'arrives as esc', // 0x1b
  'ctrl+@': 'arrives as ctrl+space', // 0x00
  'ctrl+2': 'arrives as ctrl+space', // 0x00 in xterm
  'ctrl+\\': 'is not read by opencode (0x1c)',
  'ctrl+]': 'is not read by opencode (0x1d)',
  'ctrl+^': 'is not read by opencode (0x1e)',
  'ctrl+6': 'is not read by opencode (0x1e in xterm)',
  'ctrl+enter': 'arrives as enter in most terminals (only the kitty keyboard protocol tells it apart)',
  'ctrl+tab': 'arrives as tab in most terminals',
  'ctrl+backspace': 'arrives as ctrl+h in xterm and as backspace elsewhere',
};

/** The `keybindings` of one config file, as written: action → a key, a list of keys, or `"none"`. */
export interface KeybindingSource {
  /** the file's path, named in every problem line */
  file: string;
  bindings: Record<string, unknown>;
}

/** What {@link buildKeymap} returns. */
export interface BuiltKeymap {
  keymap: Keymap;
  /** one line each: `<file>: keybindings.<action>: <problem>`; the action keeps its other keys */
  errors: string[];
  /** one line each: conflicts and keys terminals do not send */
  warnings: string[];
}

const ACTIONS = new Set<string>(BINDINGS.map((b) => b.action));

/**
 * The keymap of the table with `sources` laid over it in order (the global file, then the
 * project's: a later file's action replaces an earlier one's keys). An action set to `"none"` or
 * `[]` has no key. An action with a bad value keeps the keys it had.
 */
export function buildKeymap(sources: readonly KeybindingSource[]): BuiltKeymap {
  const keys = new Map<string, readonly string[]>(BINDINGS.map((b: Binding) => [b.action, b.keys]));
  const origin = new Map<string, string>();
  const errors: string[] = [];
  const warnings: string[] = [];
  for (const { file, bindings } of sources) {
    for (const [action, value] of Object.entries(bindings)) {
      const where = `${file}: keybindings.${action}`;
      if (!ACTIONS.has(action)) {
        const near = nearestAction(action);
        errors.push(
          `${where}: unknown action${near ? ` (did you mean ${near}?)` : ''}; \`opencode keybindings\` lists them`,
        );
        continue;
      }
      const list =
        typeof value === 'string'
          ? [value]
          : Array.isArray(value) && value.every((v) => typeof v === 'string')
            ? (value as string[])
            : undefined;
      if (!list) {
        errors.push(`${where}: expected a key ("ctrl+n"), a list of keys (["ctrl+n", "alt+n"]) or "none"`);
        continue;
      }
      if (list.length === 1 && list[0]!.trim().toLowerCase() === 'none') {
        keys.set(action, []);
        origin.set(action, file);
        continue;
      }
      const parsed: string[] = [];
      let bad = false;
      for (const text of list) {
        const result = parseKeyString(text);
        if (!result.ok) {
          errors.push(`${where}: "${text}" is not a key: ${result.problem}`);
          bad = true;
          continue;
        }
        const limit = TERMINAL_LIMITS[result.canonical];
        if (limit) warnings.push(`${where}: ${result.canonical} ${limit}`);
        if (!parsed.includes(result.canonical)) parsed.push(result.canonical);
      }
      if (bad) continue;
      keys.set(action, parsed);
      origin.set(action, file);
    }
  }
  warnings.push(...findConflicts(keys, origin));
  return { keymap: new Keymap(keys), errors, warnings };
}

/**
 * Two actions on one key inside one context, where at least one of the two came from a config
 * file (the table's own overlaps are tested away): `<file>: ctrl+n is bound to both session.new and
 * model.list (chat page); only one of them will run: bind one to another key`. Keys are compared in canonical form.
 */
function findConflicts(keys: ReadonlyMap<string, readonly string[]>, origin: ReadonlyMap<string, string>): string[] {
  const lines = new Set<string>();
  for (const context of KEY_CONTEXTS) {
    const scopes = new Set<string>(context.scopes);
    const actions = BINDINGS.filter(
      (b: Binding) => scopes.has(b.scope) || context.actions?.includes(b.action as ActionName),
    ).map((b) => b.action);
    const byKey = new Map<string, string[]>();
    for (const action of actions) {
      for (const text of keys.get(action) ?? []) {
        const parsed = parseKeyString(text);
        const canonical = parsed.ok ? parsed.canonical : text;
        const list = byKey.get(canonical) ?? [];
        if (!list.includes(action)) list.push(action);
        byKey.set(canonical, list);
      }
    }
    for (const [key, list] of byKey) {
      if (list.length < 2) continue;
      const files = [...new Set(list.map((a) => origin.get(a)).filter((f): f is string => !!f))];
      if (files.length === 0) continue;
      lines.add(
        `${files.join(', ')}: ${key} is bound to both ${list.join(' and ')} (${context.name}); only one of them will run: bind one to another key`,
      );
    }
  }
  return [...lines];
}

/** The action a mistyped name most likely meant (same area, or one edit away), for the error line. */
function nearestAction(name: string): string | undefined {
  let best: { action: string; distance: number } | undefined;
  for (const action of ACTIONS) {
    const distance = editDistance(name.toLowerCase(), action);
    if (!best || distance < best.distance) best = { action, distance };
  }
  return best && best.distance <= Math.max(2, Math.floor(name.length / 4)) ? best.action : undefined;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}
