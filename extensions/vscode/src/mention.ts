/**
 * The text the extension puts in opencode's prompt for a file: `@` and its workspace-relative path
 * (forward slashes, as the TUI's own `@` completion writes it), with `#L10` for a one-line
 * selection and `#L10-24` for several lines. Line numbers count from 1.
 */

/** A selection by zero-based line and character, as VS Code's `Selection` has it. */
export interface LineRange {
  start: { line: number; character: number };
  end: { line: number; character: number };
}

/**
 * The mention for `relativePath` and an optional selection; an empty selection (just a cursor)
 * adds no range. A selection ending at the start of a line leaves that line out, since nothing of
 * it is selected.
 */
export function mentionFor(relativePath: string, selection?: LineRange): string {
  const path = `@${relativePath.split('\\').join('/')}`;
  if (!selection) return path;
  const { start, end } = selection;
  if (start.line === end.line && start.character === end.character) return path;
  let last = end.line;
  if (end.character === 0 && end.line > start.line) last -= 1;
  const first = start.line + 1;
  return first === last + 1 ? `${path}#L${first}` : `${path}#L${first}-${last + 1}`;
}

/**
 * Candidate file paths in a line the TUI printed (`Edit src/app.ts`, `src/a.ts:12`): words with a
 * slash or a dot-extension, with their offsets in the line. The caller keeps those that exist.
 */
export function pathCandidates(line: string): { text: string; startIndex: number }[] {
  const found: { text: string; startIndex: number }[] = [];
  for (const m of line.matchAll(/(?:\.{0,2}\/)?[\w@.-]+(?:\/[\w@.-]+)*\.[A-Za-z0-9]+/g)) {
    found.push({ text: m[0], startIndex: m.index ?? 0 });
  }
  return found;
}
