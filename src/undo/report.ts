/**
 * An undo's or redo's outcome in words: the text `opencode sessions undo` prints and the
 * TUI shows, its JSON, and the one-line status.
 */
import { isAbsolute, relative, sep } from 'node:path';
import type { TurnUndoResult } from './result.js';

/** `path` relative to `cwd` with `/` separators when inside it, else absolute. */
export function displayPath(cwd: string, path: string): string {
  const rel = relative(cwd, path);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return path;
  return rel.split(sep).join('/');
}

/** Files listed one a line; the rest are counted (a turn that made 10,000 files). */
export const REPORT_MAX_FILES = 200;
/** Files left alone listed with their difference (up to 80 lines each); the rest are counted. */
export const REPORT_MAX_CONFLICTS = 20;

/** `1 more file`, `9,800 more files`. */
function more(count: number): string {
  return `${count.toLocaleString('en-US')} more ${count === 1 ? 'file' : 'files'}`;
}

/** What each action is called in the listing. */
const ACTION_WORDS: Readonly<Record<TurnUndoResult['files'][number]['action'], string>> = {
  restored: 'restored',
  removed: 'removed',
  created: 'created',
};

/**
 * The outcome as lines, e.g.
 * ```
 * Undid the turn "tidy up the files":
 *   restored  legacy.txt
 *   removed   new.txt
 * Left alone, changed since:
 *   notes.md: changed since
 *     --- a/notes.md
 *     …
 * ```
 */
export function formatUndoResult(result: TurnUndoResult, cwd: string): string {
  const verb = result.kind === 'undo' ? 'Undid' : 'Redid';
  const turn = result.prompt ? `the turn "${result.prompt}"` : 'the turn';
  const lines: string[] = [];
  if (result.files.length) {
    lines.push(`${verb} ${turn}:`);
    for (const file of result.files.slice(0, REPORT_MAX_FILES))
      lines.push(`  ${ACTION_WORDS[file.action].padEnd(9)} ${displayPath(cwd, file.path)}`);
    if (result.files.length > REPORT_MAX_FILES)
      lines.push(`  … and ${more(result.files.length - REPORT_MAX_FILES)} (--json lists every one)`);
  } else {
    lines.push(`Nothing ${result.kind === 'undo' ? 'undone' : 'redone'}: every file of ${turn} changed since.`);
  }
  if (result.conflicts.length) {
    const overwritten =
      result.files.length && result.conflicts.every((c) => result.files.some((f) => f.path === c.path));
    lines.push(
      overwritten
        ? 'Overwritten although they changed since (--force):'
        : 'Left alone, changed since (your changes are kept):',
    );
    for (const conflict of result.conflicts.slice(0, REPORT_MAX_CONFLICTS)) {
      lines.push(`  ${displayPath(cwd, conflict.path)}: ${conflict.reason}`);
      for (const line of conflict.diff.replace(/\n$/, '').split('\n')) if (line) lines.push(`    ${line}`);
    }
    if (result.conflicts.length > REPORT_MAX_CONFLICTS)
      lines.push(
        `  … and ${more(result.conflicts.length - REPORT_MAX_CONFLICTS)} (--json lists every one, with its difference)`,
      );
  }
  if (result.untracked.length) {
    lines.push('Not put back (changes that were not tracked stay as they are):');
    for (const reason of result.untracked) lines.push(`  ${reason}`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * One line for a status bar: `Undid "tidy up…": 3 files (1 left alone: changed since)`, plus
 * `; some changes were not tracked` when the turn (or a later one) had changes undo cannot put back.
 */
export function undoStatusLine(result: TurnUndoResult): string {
  const verb = result.kind === 'undo' ? 'Undid' : 'Redid';
  const turn = result.prompt ? ` "${result.prompt}"` : '';
  const left = result.conflicts.filter((c) => !result.files.some((f) => f.path === c.path)).length;
  if (result.files.length === 0)
    return `Nothing ${result.kind === 'undo' ? 'undone' : 'redone'}: every file of the turn changed since`;
  const count = `${result.files.length} ${result.files.length === 1 ? 'file' : 'files'}`;
  const untracked = result.untracked.length ? '; some changes were not tracked' : '';
  return `${verb}${turn}: ${count}${left ? ` (${left} left alone: changed since)` : ''}${untracked}`;
}

/** The outcome as `--json` prints it: paths relative to the project when inside it. */
export function undoResultJson(result: TurnUndoResult, cwd: string): Record<string, unknown> {
  return {
    kind: result.kind,
    turnId: result.turnId,
    prompt: result.prompt,
    files: result.files.map((f) => ({ path: displayPath(cwd, f.path), action: f.action })),
    conflicts: result.conflicts.map((c) => ({ path: displayPath(cwd, c.path), reason: c.reason, diff: c.diff })),
    untracked: result.untracked,
    noteMessageId: result.note?.id ?? null,
  };
}
