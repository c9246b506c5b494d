/**
 * sed's command line (GNU and BSD), for the read-only table and the write targets:
 * its scripts, its files, whether it edits them in place (`-i`, `--in-place`, and any
 * abbreviation getopt_long accepts, `--in-pl`), and whether a script only prints. What a script
 * writes is read by `sed-script.ts`. Pure.
 */
import { resolveLongOption, splitLong } from './getopt.js';

/** What a sed command line does: its scripts, the files it reads, whether it edits them in place. */
export interface SedInvocation {
  inPlace: boolean;
  scripts: string[];
  /** where the file arguments are in `args` */
  fileIndexes: number[];
  /** -f script files (unknown content) or options we don't know */
  opaque: boolean;
  /** the script comes from a file (-f): what it writes is not known */
  scriptFiles: boolean;
}

const SED_FLAGS = new Set(['n', 'E', 'r', 'z', 'u', 's', 'b']);
const SED_LONG_FLAGS = [
  '--quiet',
  '--silent',
  '--regexp-extended',
  '--null-data',
  '--zero-terminated',
  '--unbuffered',
  '--separate',
  '--posix',
  '--debug',
  '--sandbox',
  '--follow-symlinks',
  '--binary',
];
/** Every long option of GNU sed 4.9, so that abbreviations resolve as getopt_long does (`--in-pl` is `--in-place`). */
const SED_LONG_OPTIONS = [
  ...SED_LONG_FLAGS,
  '--in-place',
  '--expression',
  '--file',
  '--line-length',
  '--help',
  '--version',
].map((o) => o.slice(2));

/** Parses sed's arguments (GNU and BSD: `-i` with an attached suffix, or BSD's `-i ''`). */
export function parseSed(args: readonly string[]): SedInvocation {
  const result: SedInvocation = { inPlace: false, scripts: [], fileIndexes: [], opaque: false, scriptFiles: false };
  const positional: number[] = [];
  let fromOptions = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      for (let j = i + 1; j < args.length; j++) positional.push(j);
      break;
    }
    if (arg.startsWith('--')) {
      const [written, attached] = splitLong(arg);
      const resolved = resolveLongOption(written, SED_LONG_OPTIONS);
      const flag = resolved === undefined || resolved === 'ambiguous' ? written : `--${resolved}`;
      if (flag === '--in-place') result.inPlace = true;
      else if (flag === '--expression' || flag === '--file' || flag === '--line-length') {
        const value = attached ?? args[++i] ?? '';
        if (flag === '--expression') result.scripts.push(value);
        if (flag === '--file') result.opaque = result.scriptFiles = true;
        if (flag !== '--line-length') fromOptions = true;
      } else if (!SED_LONG_FLAGS.includes(flag)) result.opaque = true;
    } else if (arg.startsWith('-') && arg.length > 1) {
      for (let j = 1; j < arg.length; j++) {
        const letter = arg[j]!;
        if (SED_FLAGS.has(letter)) continue;
        if (letter === 'i') {
          result.inPlace = true;
          if (j === arg.length - 1 && args[i + 1] === '') i++; // BSD: sed -i '' …
          break; // the rest of the cluster is the backup suffix
        }
        if (letter === 'e' || letter === 'f' || letter === 'l') {
          const value = j < arg.length - 1 ? arg.slice(j + 1) : (args[++i] ?? '');
          if (letter === 'e') result.scripts.push(value);
          if (letter === 'f') result.opaque = result.scriptFiles = true;
          if (letter !== 'l') fromOptions = true;
          break;
        }
        result.opaque = true;
      }
    } else positional.push(i);
  }
  if (!fromOptions && positional.length) result.scripts.push(args[positional.shift()!]!);
  result.fileIndexes = positional;
  return result;
}

export function sedIsReadOnly(args: readonly string[]): boolean {
  const sed = parseSed(args);
  return !sed.inPlace && !sed.opaque && sed.scripts.every(isPrintOnlySedScript);
}

const SED_ADDRESS = String.raw`(?:\d+(?:~\d+)?|\$|/(?:[^/\\]|\\.)*/[IM]*)`;
const SED_PRINT_COMMAND = new RegExp(
  String.raw`^(?:${SED_ADDRESS}(?:\s*,\s*(?:${SED_ADDRESS}|[+~]\d+))?)?\s*!?\s*(?:[pdDnNPgGhHxz=]|[qQlL]\s*\d*)?$`,
);

/**
 * Whether a sed script only prints or edits its output: addresses with p/d/q/=/n…, and `s` or `y`
 * commands without the `w` (write a file) or `e` (run a command) flags. Anything else (`w file`,
 * `e cmd`, `r file`, blocks) asks. The split on `;` is naive on purpose: a `;` inside an `s` pattern
 * makes a piece that fails to match, so the script asks rather than passes.
 */
export function isPrintOnlySedScript(script: string): boolean {
  return script.split(/[;\n]/).every((piece) => {
    const command = piece.trim();
    if (SED_PRINT_COMMAND.test(command)) return true;
    const substitution = new RegExp(String.raw`^(?:${SED_ADDRESS}(?:\s*,\s*${SED_ADDRESS})?)?\s*!?\s*([sy])(.*)$`).exec(
      command,
    );
    if (!substitution) return false;
    const flags = afterDelimitedParts(substitution[2]!, 2);
    if (flags === undefined) return false;
    return substitution[1] === 'y' ? flags.trim() === '' : /^[gpiImM0-9]*$/.test(flags.trim());
  });
}

/** For `/a/b/flags` (any delimiter), what follows the `count`-th closing delimiter. */
function afterDelimitedParts(text: string, count: number): string | undefined {
  const delimiter = text[0];
  if (!delimiter || delimiter === '\\' || delimiter === '\n') return undefined;
  let seen = 0;
  for (let i = 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === delimiter && ++seen === count) return text.slice(i + 1);
  }
  return undefined;
}
