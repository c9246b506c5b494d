/**
 * What the sqlite3 shell writes, for `write-targets.ts`: the database file it opens, and a place that
 * cannot be known when its SQL or dot-commands name other files (`ATTACH`, `VACUUM INTO`, `.output`,
 * `.backup`, …) or when the SQL comes from its input. `.shell`, `.system` and loading an extension run
 * code. `-safe` forbids all of those. Sources: sqlite3's `.help`, SQLite's ATTACH and VACUUM INTO, the
 * shell's writefile(). Pure.
 */
import type { ShellWord } from './shell-parse.js';
import { literalWord as word, unknownPlace, type CommandWrites, type WriteTarget } from './write-target-types.js';

// prettier-ignore
const SQLITE_VALUE_OPTIONS = ['-cmd', '-init', '-separator', '-newline', '-nullvalue', '-vfs', '-mmap', '-maxsize', '-pagecache', '-lookaside', '-heap', '-escape', '-A'];
/** SQL and dot-commands that name other files or run programs (sqlite3's `.help`, SQLite's ATTACH and VACUUM INTO, the shell's writefile()). */
const SQLITE_OTHER_FILES =
  /\b(attach|vacuum\s+into|writefile|edit|load_extension)\b|(^|[\s;])\.(output|once|save|backup|clone|open|log|trace|excel|import|read|cd|dump)\b/i;
const SQLITE_CODE = /(^|[\s;])\.(shell|system|load)\b|\bload_extension\b/i;

/** See the `sqlite3` row of the write-target table. */
export function sqliteTargets(words: readonly ShellWord[]): CommandWrites {
  const texts: ShellWord[] = [];
  const positionals: ShellWord[] = [];
  let safe = false;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const option = w.value.replace(/^--/, '-');
    if (option === '-safe') safe = true;
    if (SQLITE_VALUE_OPTIONS.includes(option)) {
      const value = words[++i];
      if (value && (option === '-cmd' || option === '-init'))
        texts.push(option === '-init' ? word('.read init') : value);
    } else if (!w.value.startsWith('-') || !w.literal) positionals.push(w);
  }
  const [database, ...sql] = positionals;
  texts.push(...sql);
  const targets: WriteTarget[] = database ? [{ word: database, via: 'other' }] : [];
  if (safe) return { onlyTargets: true, targets };
  const code = texts.find((t) => !t.literal || SQLITE_CODE.test(t.value));
  if (code && code.literal)
    return { onlyTargets: true, targets, runsCode: `sqlite3 runs a program or loads code: ${code.value}` };
  if (texts.length === 0) targets.push(unknownPlace('(files named by SQL read from input)'));
  else if (texts.some((t) => !t.literal || SQLITE_OTHER_FILES.test(t.value)))
    targets.push(unknownPlace('(files named in the SQL)'));
  return { onlyTargets: true, targets };
}
