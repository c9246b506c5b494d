/**
 * Code bash evaluates late, from values the analysis does not see (bash(1) "ARITHMETIC EVALUATION",
 * "Parameter Expansion", "Programmable Completion"):
 * - arithmetic (`$(( x ))`, `(( x ))`, `let`, `[[ x -eq 1 ]]`, a substring offset `${s:x}`, an indexed
 *   array's subscript `${a[x]}`) evaluates the *value* of each variable it names as an expression in
 *   turn, and an expression such as `a[$(rm -rf ~)]` runs the command: a variable set from input
 *   (`read x`), from a substitution or from the environment can hold one;
 * - indirect expansion `${!x}` expands the variable whose name `x` holds, and a name such as
 *   `a[$(rm x)]` evaluates its subscript;
 * - `compgen -W 'words'` expands its word list again, running the substitutions it holds; `-C` and
 *   `-F` run a command or a function.
 *
 * {@link KnownVariables} follows which variables hold a value written in the line itself (`n=3`,
 * `for ((i=0; …))`); any other name reaching these places makes the command opaque code. Pure.
 */
import { opaqueReason } from './opaque-code.js';
import type { CommandArg } from './safe-command-types.js';

/** bash's own variables that always hold a number it sets itself. */
const NUMERIC_SPECIALS = new Set([
  'RANDOM',
  'SRANDOM',
  'SECONDS',
  'LINENO',
  'BASHPID',
  'PPID',
  'UID',
  'EUID',
  'EPOCHSECONDS',
  'OPTIND',
  'SHLVL',
]);

/** A name and the place it reaches, for the reason line. */
export interface LateName {
  name: string;
  place: 'arithmetic' | 'indirect expansion';
}

/** The variables of an arithmetic expression: `x`, `$x`, `${x}`, `$1` (not `$#`, `${#a[@]}`, `16#ff` or `0x1f`). */
export function arithmeticNames(expression: string): string[] {
  const cleaned = expression
    .replace(/\$\{#[^}]*\}/g, ' 0 ')
    .replace(/\$[#?$!*@-]/g, ' 0 ')
    .replace(/\b\d+#[0-9A-Za-z@_]+/g, ' 0 ')
    .replace(/\b0[xX][0-9a-fA-F]+/g, ' 0 ');
  const names: string[] = [];
  for (const match of cleaned.matchAll(/\$\{?(\d+)|(?<![0-9A-Za-z_])\$?\{?([A-Za-z_][A-Za-z0-9_]*)/g))
    names.push(match[1] ?? match[2]!);
  return names;
}

/** Names an arithmetic `for (( … ))` header or `(( … ))` assigns (`i=0`, not `i==0`): set in the line itself. */
export function arithmeticAssignments(expression: string): string[] {
  return [...expression.matchAll(/(?<![0-9A-Za-z_$])([A-Za-z_][A-Za-z0-9_]*)\s*=(?!=)/g)].map((m) => m[1]!);
}

/** Where a word's text (as written) has bash evaluate a name late: arithmetic, a substring offset, a subscript, `${!x}`. */
export function lateEvaluatedNames(text: string): LateName[] {
  const unquoted = text.replace(/'[^']*'/g, "''"); // nothing expands in single quotes
  const found: LateName[] = [];
  const arithmetic = (expression: string) =>
    found.push(...arithmeticNames(expression).map((name) => ({ name, place: 'arithmetic' as const })));
  for (const m of unquoted.matchAll(/\$\(\(([\s\S]*?)\)\)|\$\[([\s\S]*?)\]/g)) arithmetic(m[1] ?? m[2] ?? '');
  // ${s:offset:length}, not the ${s:-default} family
  for (const m of unquoted.matchAll(/\$\{[A-Za-z_][A-Za-z0-9_]*:(?![-=+?])([^}]*)\}/g)) arithmetic(m[1]!);
  // ${a[i]}: an indexed array's subscript is arithmetic (not [@] or [*])
  for (const m of unquoted.matchAll(/\$\{#?[A-Za-z_][A-Za-z0-9_]*\[([^\]]*)\]/g))
    if (!/^[@*]$/.test(m[1]!)) arithmetic(m[1]!);
  // ${!x}, ${!1}: not ${!prefix*}, ${!prefix@} or ${!a[@]}, which list names or keys
  for (const m of unquoted.matchAll(/\$\{!([A-Za-z_][A-Za-z0-9_]*|\d+)(?![A-Za-z0-9_]|\[|[*@]\})/g))
    found.push({ name: m[1]!, place: 'indirect expansion' });
  return found;
}

/** Operands of `[[ … -eq … ]]` and the other arithmetic comparisons, which bash evaluates as expressions. */
export function testClauseArithmetic(text: string): string[] {
  const names: string[] = [];
  for (const m of text.matchAll(/(\S+)\s+-(?:eq|ne|lt|le|gt|ge)\s+(\S+)/g)) {
    for (const operand of [m[1]!, m[2]!]) names.push(...arithmeticNames(operand.replace(/^["']|["']$/g, '')));
  }
  return names;
}

/**
 * The variables a line has set to a value written in it; every other variable's value is unknown
 * (input, a substitution, the environment).
 */
export class KnownVariables {
  private readonly known = new Set<string>();
  /** variables declared integer (`declare -i n`): assigning one evaluates the value as arithmetic */
  private readonly integers = new Set<string>();

  /** `name=value`: known when the value is written in the line and holds no expansion. */
  assign(name: string, literalValue: string | undefined): void {
    if (literalValue !== undefined && !/[$`[]/.test(literalValue)) this.known.add(name);
    else this.known.delete(name);
  }

  /**
   * A simple command: why its words (or its assignments' values) have bash evaluate an unknown value
   * late, then what it sets: `n=3` is known, `read n`, `n=$(cat f)` are not, `let i=0` is.
   */
  call(
    words: readonly { text: string; value: string; literal: boolean }[],
    assignments: readonly { name: string; value?: { text: string; value: string; literal: boolean } }[],
  ): string | undefined {
    const written = [...assignments.map((a) => `${a.name}=${a.value?.text ?? ''}`), ...words.map((w) => w.text)].join(
      ' ',
    );
    const texts = [...words.map((w) => w.text), ...assignments.flatMap((a) => (a.value ? [a.value.text] : []))];
    let reason = this.unknown(texts.flatMap(lateEvaluatedNames), written);
    const builtin = words[0]?.literal ? words[0].value : undefined;
    const args = words.slice(1);
    if (builtin === 'let') {
      for (const arg of args) {
        const [, name, expression] = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(arg.value) ?? [
          undefined,
          undefined,
          arg.value,
        ];
        reason ??= this.unknown(arithmeticNames(expression!), written);
        if (name !== undefined) this.assign(name, /^-?\d+$/.test(expression!) ? expression : undefined);
      }
    } else if (builtin !== undefined && ['declare', 'typeset', 'local', 'export', 'readonly'].includes(builtin)) {
      const integer = args.some((a) => /^-[a-zA-Z]*i/.test(a.value));
      for (const arg of args) {
        const match = /^([A-Za-z_][A-Za-z0-9_]*)(?:=(.*))?$/s.exec(arg.value);
        if (!match) continue;
        if (integer) this.integers.add(match[1]!);
        if (match[2] !== undefined) {
          if (this.integers.has(match[1]!))
            reason ??= this.integerAssignment(match[1]!, arg.literal ? match[2] : undefined, written);
          this.assign(match[1]!, arg.literal ? match[2] : undefined);
        }
      }
    } else if (
      builtin !== undefined &&
      ['read', 'mapfile', 'readarray', 'getopts', 'printf', 'wait'].includes(builtin)
    ) {
      for (const arg of args) this.known.delete(arg.value); // set from input
    }
    for (const a of assignments) {
      const value = a.value === undefined ? '' : a.value.literal ? a.value.value : undefined;
      if (this.integers.has(a.name)) reason ??= this.integerAssignment(a.name, value, written);
      this.assign(a.name, value);
    }
    return reason;
  }

  /** `declare -i n; n=$v`: bash evaluates the value assigned to an integer variable as arithmetic. */
  private integerAssignment(name: string, value: string | undefined, written: string): string | undefined {
    if (value === undefined)
      return opaqueReason(
        `${written} (${name} is an integer: the value, only known when it runs, is evaluated as arithmetic)`,
      );
    return this.unknown(arithmeticNames(value), written);
  }

  /** A compound command as written (`(( … ))`, `for (( … ))`, `for x in …`, `[[ … ]]`): why it evaluates an unknown value, then what it sets. */
  statement(type: string, text: string): string | undefined {
    if (type === 'TestClause') return this.unknown(testClauseArithmetic(text), text);
    const header =
      type === 'ForClause'
        ? /^for\s*\(\(([\s\S]*?)\)\)/.exec(text)?.[1]
        : type === 'ArithmCmd'
          ? text.replace(/^\(\(|\)\)$/g, '')
          : undefined;
    if (header !== undefined) {
      const assigned = arithmeticAssignments(header);
      // the names assigned are set here; what their expressions name must be known
      const used = arithmeticNames(header.replace(/(?<![0-9A-Za-z_$])[A-Za-z_][A-Za-z0-9_]*\s*=(?!=)/g, ' '));
      const reason = this.unknown(
        used.filter((n) => !assigned.includes(n)),
        text,
      );
      for (const name of assigned) this.known.add(name);
      return reason;
    }
    if (type === 'CaseClause') {
      const subject = /^case\s+([\s\S]*?)\s+in\b/.exec(text)?.[1];
      return subject === undefined ? undefined : this.unknown(lateEvaluatedNames(subject), text);
    }
    const loop = /^(?:for|select)\s+([A-Za-z_][A-Za-z0-9_]*)\s+in\s+([^;\n]*)/.exec(text);
    if (!loop) return undefined;
    const reason = this.unknown(lateEvaluatedNames(loop[2]!), text);
    this.assign(loop[1]!, /^[\w./ :+-]*$/.test(loop[2]!) ? loop[2] : undefined);
    return reason;
  }

  /** The first name that reaches late evaluation without a known value, as a reason, or undefined. */
  unknown(names: readonly (LateName | string)[], written: string): string | undefined {
    for (const entry of names) {
      const { name, place } = typeof entry === 'string' ? { name: entry, place: 'arithmetic' } : entry;
      if (this.known.has(name) || NUMERIC_SPECIALS.has(name)) continue;
      return opaqueReason(
        `${written} (${/^\d+$/.test(name) ? `$${name}` : name} reaches ${place}, which evaluates a value only known when it runs)`,
      );
    }
    return undefined;
  }
}

/** `compgen -W words` expands the words again (running the substitutions they hold); `-C` and `-F` run a command or function. */
export function compgenCode(name: string, args: readonly CommandArg[], written: string): string | undefined {
  if (name !== 'compgen') return undefined;
  const option = args.find((a) => /^-[A-Za-z]*[WCF]/.test(a.value));
  return option
    ? opaqueReason(`${written} (${option.value.slice(0, 2)} expands or runs code when it completes)`)
    : undefined;
}
