/**
 * A reader for sed scripts (GNU sed 4.x syntax, which BSD's is a subset of), for the shell analysis:
 * which files a script writes (`w file`, `W file`, `s/a/b/w file`), whether it runs
 * commands (`e`, `s/a/b/e`). (Whether a script only prints is `isPrintOnlySedScript` in
 * `safe-commands.ts`, stricter on purpose.)
 *
 * Source of the grammar: the GNU sed manual, "sed scripts" and "Commands": file names after `r`, `R`,
 * `w`, `W` and the `w` flag run to the end of the line (a `;` is part of the name); `a`, `i`, `c`
 * take the rest of the line (or `\`-continued lines) as text; labels end at `;` or a newline.
 *
 * Pure. A script this reader cannot follow is reported as `valid: false`; callers then treat it as
 * one that may write anywhere.
 */

/** What a sed script does besides editing its output. */
export interface SedScriptEffects {
  /** the script was read to its end (false: sed may read it otherwise; treat it as doing anything) */
  valid: boolean;
  /** files written by `w`/`W` commands and the `w` flag of `s`, as written (`/dev/stdout` included) */
  writes: string[];
  /** files read by `r`/`R` */
  reads: string[];
  /** `e` commands or the `e` flag of `s`: runs a shell command */
  executes: boolean;
}

/** Files sed treats as its output streams, not as files (GNU sed manual, "w filename"). */
export const SED_OUTPUT_STREAMS = new Set(['/dev/stdout', '/dev/stderr']);

const NO_ARGUMENT_COMMANDS = new Set([...'=dDgGhHnNpPxzF']);
const TEXT_COMMANDS = new Set([...'aic']);
const LABEL_COMMANDS = new Set([...'btT:']);
const FILE_COMMANDS = new Set([...'rRwW']);

/** Reads a whole sed script (all `-e` pieces joined by newlines, as sed joins them). */
export function readSedScript(script: string): SedScriptEffects {
  const effects: SedScriptEffects = { valid: true, writes: [], reads: [], executes: false };
  const reader = new Reader(script);
  try {
    reader.commands(effects);
  } catch {
    effects.valid = false;
  }
  return effects;
}

class Reader {
  private i = 0;
  constructor(private readonly s: string) {}

  commands(effects: SedScriptEffects): void {
    let depth = 0;
    for (;;) {
      this.skip(/[\s;]/);
      if (this.i >= this.s.length) break;
      if (this.peek() === '#') {
        this.restOfLine();
        continue;
      }
      this.address();
      this.skip(/[ \t]/);
      while (this.peek() === '!') {
        this.i++;
        this.skip(/[ \t]/);
      }
      const command = this.s[this.i++];
      if (command === undefined) throw new Error('address without a command');
      if (command === '{') depth++;
      else if (command === '}') {
        if (--depth < 0) throw new Error('unexpected }');
      } else if (NO_ARGUMENT_COMMANDS.has(command)) continue;
      else if (command === 'q' || command === 'Q' || command === 'l' || command === 'L') {
        this.skip(/[ \t]/);
        this.skip(/\d/);
      } else if (TEXT_COMMANDS.has(command)) this.text();
      else if (LABEL_COMMANDS.has(command)) this.label();
      else if (command === 'v') this.label();
      else if (FILE_COMMANDS.has(command)) {
        const file = this.fileName();
        if (command === 'w' || command === 'W') effects.writes.push(file);
        else effects.reads.push(file);
      } else if (command === 'e') {
        effects.executes = true;
        this.restOfLine();
      } else if (command === 's') this.substitute(effects);
      else if (command === 'y') {
        this.delimited(2);
      } else throw new Error(`unknown command ${command}`);
    }
    if (depth !== 0) throw new Error('unmatched {');
  }

  private address(): void {
    if (!this.oneAddress()) return;
    this.skip(/[ \t]/);
    if (this.peek() !== ',') return;
    this.i++;
    this.skip(/[ \t]/);
    if (this.peek() === '+' || this.peek() === '~') {
      this.i++;
      if (!this.skip(/\d/)) throw new Error('bad address');
    } else if (!this.oneAddress()) throw new Error('missing second address');
  }

  private oneAddress(): boolean {
    const c = this.peek();
    if (c !== undefined && /\d/.test(c)) {
      this.skip(/\d/);
      if (this.peek() === '~') {
        this.i++;
        this.skip(/\d/);
      }
      return true;
    }
    if (c === '$') {
      this.i++;
      return true;
    }
    if (c === '/' || c === '\\') {
      if (c === '\\') this.i++;
      this.delimited(1);
      this.skip(/[IM]/);
      return true;
    }
    return false;
  }

  /** `count` parts ended by the delimiter at the cursor: `/re/` is 1, `/a/b/` is 2. */
  private delimited(count: number): void {
    const delimiter = this.s[this.i++];
    if (delimiter === undefined || delimiter === '\\' || delimiter === '\n') throw new Error('bad delimiter');
    let seen = 0;
    while (seen < count) {
      const c = this.s[this.i++];
      if (c === undefined) throw new Error('unterminated');
      if (c === '\\') this.i++;
      else if (c === delimiter) seen++;
      else if (c === '[' && delimiter !== '[') this.bracket();
    }
  }

  /** A bracket expression `[...]` in a regex: the delimiter does not end the regex inside it. */
  private bracket(): void {
    const start = this.i;
    if (this.peek() === '^') this.i++;
    if (this.peek() === ']') this.i++;
    while (this.i < this.s.length && this.s[this.i] !== ']' && this.s[this.i] !== '\n') {
      if (this.s[this.i] === '[' && /[:.=]/.test(this.s[this.i + 1] ?? '')) {
        const end = this.s.indexOf(`${this.s[this.i + 1]}]`, this.i + 2);
        if (end === -1) break;
        this.i = end + 2;
      } else this.i++;
    }
    if (this.s[this.i] === ']') this.i++;
    else this.i = start; // not a bracket expression after all: read it as plain characters
  }

  private substitute(effects: SedScriptEffects): void {
    this.delimited(2);
    for (;;) {
      const flag = this.peek();
      if (flag === undefined || /[\s;}#]/.test(flag)) break;
      this.i++;
      if (flag === 'w') {
        effects.writes.push(this.fileName());
        break;
      }
      if (flag === 'e') effects.executes = true;
      else if (!/[gpiImM0-9]/.test(flag)) throw new Error(`unknown s flag ${flag}`);
    }
  }

  private text(): void {
    // `a\` + newline + lines ending in `\`, or GNU's one-liner `a text`
    this.skip(/[ \t]/);
    if (this.peek() === '\\') this.i++;
    if (this.peek() === '\n') this.i++;
    while (this.i < this.s.length && this.s[this.i] !== '\n') {
      if (this.s[this.i] === '\\') this.i++;
      this.i++;
    }
  }

  private label(): void {
    this.skip(/[ \t]/);
    while (this.i < this.s.length && !/[;\n]/.test(this.s[this.i]!)) this.i++;
  }

  private fileName(): string {
    this.skip(/[ \t]/);
    return this.restOfLine();
  }

  private restOfLine(): string {
    const end = this.s.indexOf('\n', this.i);
    const line = this.s.slice(this.i, end === -1 ? this.s.length : end);
    this.i = end === -1 ? this.s.length : end;
    return line;
  }

  private peek(): string | undefined {
    return this.s[this.i];
  }

  /** Skips characters matching `pattern`; whether any were skipped. */
  private skip(pattern: RegExp): boolean {
    const start = this.i;
    while (this.i < this.s.length && pattern.test(this.s[this.i]!)) this.i++;
    return this.i > start;
  }
}
