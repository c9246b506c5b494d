/**
 * Code bash itself runs that the shell analysis does not see as a command: array subscripts bash
 * evaluates in arithmetic (`(( … ))`, `let`, `[[ … -eq … ]]`, `[ -v 'a[$(rm x)]' ]`), `${x@P}`
 * prompt expansion, and variables that make programs run code (`export PATH=…`, `declare -x BASH_ENV`,
 * `export -f ls`, `read PATH`, `unset PATH`).
 *
 * Pure functions over text and a command's arguments (quotes removed). Sources: bash(1)
 * "ARITHMETIC EVALUATION", "Arrays", "Parameter transformation" and "SHELL BUILTIN COMMANDS".
 */
import { codeEnvironmentVariable, storesSubscriptCode } from './code-env.js';
import { opaqueReason } from './opaque-code.js';
import type { CommandArg } from './safe-command-types.js';

/**
 * Whether an arithmetic expression (`(( … ))`, `$(( … ))`, `let …`, an operand of `[[ … -eq … ]]`)
 * can run code bash's parser does not show as a substitution: bash evaluates array subscripts in it,
 * and a quoted `'a[$(rm x)]'`, or the output of a substitution, is evaluated as such.
 */
export function arithmeticHidesCode(expression: string): boolean {
  return /['"`]|\$\((?!\()/.test(expression.replace(/^\$\(\(|^\(\(|\)\)$/g, ''));
}

/** `[[ … ]]` (its text as written): arithmetic comparisons or `-v` whose operands hide code. */
export function testClauseHidesCode(text: string): boolean {
  const arithmetic = /\s-(eq|ne|lt|le|gt|ge)\s/.test(text);
  const variableTest = /\s-v\s/.test(text);
  if (!arithmetic && !variableTest) return false;
  return /['"`]|\$\(/.test(text.replace(/^\[\[|\]\]$/g, ''));
}

/** A variable name given to a builtin (`test -v`, `unset`, `read`, `printf -v`) whose subscript holds code: `'a[$(rm x)]'`. */
export function subscriptHidesCode(name: string): boolean {
  return /\[[^\]]*(\$\(|`|['"])/.test(name) || /\[.*\$[A-Za-z_{]/.test(name);
}

/** Words in a command whose text holds arithmetic (`$(( … ))`, `$[ … ]`, `${a[…]}`) that hides code. */
export function wordHidesCode(text: string): boolean {
  for (const match of text.matchAll(/\$\(\(([\s\S]*?)\)\)|\$\[([\s\S]*?)\]/g)) {
    if (arithmeticHidesCode(match[1] ?? match[2] ?? '')) return true;
  }
  if (expandsPrompt(text)) return true;
  // ${a['$(…)']}, ${x:'$(…)'} (an offset is arithmetic), a['$(…)']=1 (an indexed array's subscript)
  return /\$\{[^}]*[[:][^\]}]*(['"`]|\$\()/.test(text) || /^[A-Za-z_][A-Za-z0-9_]*\[[^\]]*(['"`]|\$\()/.test(text);
}

/**
 * Whether text holds `${x@P}`: bash expands the value of x as a prompt, which runs the command
 * substitutions it holds (`x='$(rm y)'; echo ${x@P}`; bash(1) "Parameter transformation").
 */
export function expandsPrompt(text: string): boolean {
  return /\$\{[^}]*@P\}/.test(text);
}

/** The header of a C-style `for (( … ; … ; … ))` loop, whose three parts are arithmetic. */
export function forLoopHidesCode(text: string): boolean {
  const header = /^for\s*\(\(([\s\S]*?)\)\)/.exec(text);
  return header !== null && arithmeticHidesCode(header[1]!);
}

// ---- variables

/**
 * Why setting variable `name` to `value` (undefined: only known when it runs, or only exported) runs
 * code the analysis cannot see: a code-running environment variable (`code-env.ts`), or a value that
 * stores an array subscript with a command for later arithmetic. `text` is the assignment as written.
 */
export function assignmentRunsCode(name: string, value: string | undefined, text: string): string | undefined {
  if (codeEnvironmentVariable(name, value)) return opaqueReason(`${text} (${name} makes programs run code)`);
  if (value !== undefined && storesSubscriptCode(value))
    return opaqueReason(`${text} (a stored array subscript holds a command)`);
  if (subscriptHidesCode(name)) return opaqueReason(`${text} (bash evaluates the array subscript)`);
  return undefined;
}

/** Builtins that set or test variables by name, and which of their arguments are names. */
const NAME_ARGUMENTS: Readonly<Record<string, (args: readonly string[]) => { names: string[]; sets: boolean }>> = {
  read: (args) => ({ names: positionalsAfter(args, ['-d', '-i', '-n', '-N', '-p', '-t', '-u'], ['-a']), sets: true }), // read -a 'a[$(rm x)]'
  mapfile: (args) => ({ names: positionalsAfter(args, ['-d', '-n', '-O', '-s', '-u', '-C', '-c'], []), sets: true }),
  readarray: (args) => ({ names: positionalsAfter(args, ['-d', '-n', '-O', '-s', '-u', '-C', '-c'], []), sets: true }),
  printf: (args) => ({ names: args[0] === '-v' && args[1] !== undefined ? [args[1]] : [], sets: true }), // printf -v PATH …
  getopts: (args) => ({ names: args[1] !== undefined ? [args[1]] : [], sets: true }),
  wait: (args) => ({
    names: args.flatMap((a, i) => (a === '-p' && args[i + 1] !== undefined ? [args[i + 1]!] : [])),
    sets: true,
  }),
  unset: (args) => ({ names: args.filter((a) => !a.startsWith('-')), sets: false }), // unset 'a[$(rm x)]'; unset PATH (see below)
  test: (args) => ({
    names: args.flatMap((a, i) => (a === '-v' && args[i + 1] !== undefined ? [args[i + 1]!] : [])),
    sets: false,
  }),
  '[': (args) => ({
    names: args.flatMap((a, i) => (a === '-v' && args[i + 1] !== undefined ? [args[i + 1]!] : [])),
    sets: false,
  }),
};

const DECLARATIONS = new Set(['export', 'declare', 'typeset', 'local', 'readonly']);

/**
 * Why a builtin that sets or inspects variables runs code the analysis cannot see: `export PATH=…`,
 * `declare -x BASH_ENV`, `export -f ls` (a function child shells run), `read PATH`,
 * `[ -v 'a[$(rm x)]' ]`, `unset 'a[$(rm x)]'`, `let 'a[$(rm x)]'`.
 */
export function variableBuiltinCode(name: string, args: readonly CommandArg[], written: string): string | undefined {
  const values = args.map((a) => a.value);
  const hasOption = (letter: string) => values.some((v) => new RegExp(`^-[A-Za-z]*${letter}`).test(v));
  // builtins that run code they are given, or change what a name runs
  if (name === 'hash' && hasOption('p')) return opaqueReason(`${written} (makes a command name run another program)`); // hash -p ./x ls
  if (name === 'enable' && hasOption('f')) return opaqueReason(`${written} (loads a builtin from a shared library)`);
  if ((name === 'mapfile' || name === 'readarray') && hasOption('C'))
    return opaqueReason(`${written} (runs its callback)`);
  if (name === 'compgen' && (hasOption('C') || hasOption('F')))
    return opaqueReason(`${written} (runs a command or function to complete)`);
  if (name === 'let') {
    return args.some((a) => arithmeticHidesCode(a.value))
      ? opaqueReason(`${written} (bash evaluates array subscripts in it)`)
      : undefined;
  }
  if (DECLARATIONS.has(name)) {
    const options = args
      .filter((a) => /^[-+][A-Za-z]+$/.test(a.value))
      .map((a) => a.value)
      .join('');
    if ((name === 'export' && options.includes('f')) || (options.includes('f') && options.includes('x'))) {
      return opaqueReason(`${written} (exports a function that child shells run)`);
    }
    if (options.includes('p')) return undefined; // declare -p HOME: prints, sets nothing
    // declare -n ref=PATH: a later `ref=./bin` sets PATH under another name
    // (`declare -n ref` alone: its first assignment, `ref=PATH`, names the target)
    for (const arg of options.includes('n') ? args : []) {
      if (/^[-+][A-Za-z]+$/.test(arg.value)) continue;
      const eq = arg.value.indexOf('=');
      const target = eq < 0 || !arg.literal ? '' : arg.value.slice(eq + 1).replace(/\[.*$/, '');
      if (target === '' || codeEnvironmentVariable(target)) {
        return opaqueReason(
          `${written} (a reference to ${target || 'a variable only known when it runs'}: setting it sets that variable)`,
        );
      }
    }
    for (const arg of args) {
      if (/^[-+][A-Za-z]+$/.test(arg.value)) continue;
      const eq = arg.value.indexOf('=');
      const variable = (eq < 0 ? arg.value : arg.value.slice(0, eq)).replace(/\+$/, '');
      const value = eq < 0 ? undefined : arg.literal ? arg.value.slice(eq + 1) : undefined;
      const reason = assignmentRunsCode(variable, value, arg.value);
      if (reason) return reason;
    }
    return undefined;
  }
  const pick = NAME_ARGUMENTS[name];
  if (!pick || !Object.hasOwn(NAME_ARGUMENTS, name)) return undefined;
  const { names, sets } = pick(args.map((a) => a.value));
  for (const variable of names) {
    // with PATH unset, bash looks for commands in the current directory: `unset PATH; ls` runs ./ls
    if (name === 'unset' && variable === 'PATH')
      return opaqueReason(`${written} (bash then runs programs from the current directory)`);
    if (subscriptHidesCode(variable)) return opaqueReason(`${written} (bash evaluates the array subscript)`);
    if (sets && codeEnvironmentVariable(variable))
      return opaqueReason(`${written} (sets ${variable}, which makes programs run code)`);
  }
  return undefined;
}

function positionalsAfter(
  args: readonly string[],
  valueOptions: readonly string[],
  nameOptions: readonly string[],
): string[] {
  const names: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (valueOptions.includes(arg)) i++;
    else if (nameOptions.includes(arg) && args[i + 1] !== undefined) names.push(args[++i]!);
    else if (!arg.startsWith('-')) names.push(arg);
  }
  return names;
}
