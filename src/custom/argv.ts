/**
 * Placeholder substitution for declarative tools' `command`. Pure functions.
 *
 * Each `{{param}}` is replaced inside its own argv element, so a value is always exactly one argument
 * of the program: it is never given to a shell, and `; rm -rf ~`, `$(…)`, quotes or newlines in it are
 * just characters of that argument. An element whose placeholders are all absent (an optional
 * parameter not sent) is left out, so `["--limit={{limit}}"]` disappears without a limit.
 */

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_-]*)\s*\}\}/g;

/** The argument text of a value: strings as they are, numbers and booleans as written, lists and objects as JSON. */
export function argumentText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value);
}

/**
 * The argv to run: `command` with every `{{name}}` replaced by `args[name]`.
 * @example substituteArgv(['grep', '-n', '{{pattern}}', 'log.txt'], { pattern: '$(id)' }) // ['grep', '-n', '$(id)', 'log.txt']
 */
export function substituteArgv(command: readonly string[], args: Record<string, unknown>): string[] {
  const argv: string[] = [];
  for (const element of command) {
    let present = 0;
    let absent = 0;
    const text = element.replace(PLACEHOLDER, (_, name: string) => {
      const value = args[name];
      if (value === undefined || value === null) {
        absent++;
        return '';
      }
      present++;
      return argumentText(value);
    });
    if (absent > 0 && present === 0) continue;
    argv.push(text);
  }
  return argv;
}

/**
 * The argv as one line a person can read and paste into a POSIX shell: each argument that needs it in
 * single quotes (a `'` as `'\''`), newlines shown as they are inside the quotes. Only for display
 * (the permission dialog): nothing is ever run from this text.
 */
export function formatArgv(argv: readonly string[]): string {
  return argv.map(quoteArgument).join(' ');
}

function quoteArgument(arg: string): string {
  if (arg !== '' && /^[A-Za-z0-9_@%+=:,./-]+$/.test(arg)) return arg;
  return `'${arg.replaceAll("'", "'\\''")}'`;
}
