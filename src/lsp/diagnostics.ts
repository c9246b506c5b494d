/**
 * Diagnostics as the model sees them (the original's format): one line per problem,
 * `Error: /p/a.ts:3:7 [typescript][2322] message`, blocks capped at {@link MAX_DIAGNOSTICS_PER_BLOCK}
 * with "... and N more diagnostics", errors first, then a summary of counts. Pure functions.
 *
 * After an edit only the problems the change could have caused are listed ({@link newSince}): the
 * ones the file did not have before it (matched by severity, source, code and message, so a problem
 * that only moved lines is not new), and the result says how many were already there.
 */

/** How bad a problem is (LSP `DiagnosticSeverity` 1–4). */
export type DiagnosticSeverity = 'error' | 'warning' | 'info' | 'hint';

/** One problem a language server reported, with 1-based positions. */
export interface Diagnostic {
  /** absolute path of the file */
  path: string;
  /** 1-based line of the start */
  line: number;
  /** 1-based column of the start (UTF-16 code units, as LSP counts) */
  column: number;
  severity: DiagnosticSeverity;
  message: string;
  /** e.g. `typescript`, `Pyright` */
  source?: string;
  /** e.g. `2322`, `reportAttributeAccessIssue` */
  code?: string;
  /** LSP tags: `unnecessary` (1), `deprecated` (2) */
  tags: ('unnecessary' | 'deprecated')[];
}

/** The LSP wire shape of a diagnostic (the part we read). */
export interface LspDiagnostic {
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  severity?: number;
  code?: number | string;
  source?: string;
  message: string;
  tags?: number[];
}

/** Lines shown per block; the rest are counted (the original's 10). */
export const MAX_DIAGNOSTICS_PER_BLOCK = 10;

const SEVERITIES: Record<number, DiagnosticSeverity> = { 1: 'error', 2: 'warning', 3: 'info', 4: 'hint' };
const SEVERITY_LABEL: Record<DiagnosticSeverity, string> = {
  error: 'Error',
  warning: 'Warn',
  info: 'Info',
  hint: 'Hint',
};
const TAGS: Record<number, 'unnecessary' | 'deprecated'> = { 1: 'unnecessary', 2: 'deprecated' };

/** Converts a wire diagnostic of `path`; a missing severity counts as an error (LSP: the client decides). */
export function fromLsp(path: string, d: LspDiagnostic): Diagnostic {
  const out: Diagnostic = {
    path,
    line: d.range.start.line + 1,
    column: d.range.start.character + 1,
    severity: SEVERITIES[d.severity ?? 1] ?? 'error',
    message: d.message,
    tags: (d.tags ?? []).map((t) => TAGS[t]).filter((t): t is 'unnecessary' | 'deprecated' => t !== undefined),
  };
  if (d.source) out.source = d.source;
  if (d.code !== undefined && d.code !== '') out.code = String(d.code);
  return out;
}

/** `Error: /p/a.ts:3:7 [typescript][2322] (unnecessary) Type 'string' is not assignable…` */
export function formatDiagnostic(d: Diagnostic): string {
  const code = d.code ? `[${d.code}]` : '';
  const tags = d.tags.length ? ` (${d.tags.join(', ')})` : '';
  return `${SEVERITY_LABEL[d.severity]}: ${d.path}:${d.line}:${d.column} [${d.source ?? ''}]${code}${tags} ${d.message}`;
}

/** Errors first, then warnings, info, hints; within one severity by the formatted line (path, line, column). */
export function sortDiagnostics(list: readonly Diagnostic[]): Diagnostic[] {
  const rank: Record<DiagnosticSeverity, number> = { error: 0, warning: 1, info: 2, hint: 3 };
  return [...list].sort(
    (a, b) =>
      rank[a.severity] - rank[b.severity] ||
      a.path.localeCompare(b.path) ||
      a.line - b.line ||
      a.column - b.column ||
      a.message.localeCompare(b.message),
  );
}

/** A block `<tag>\n…lines…\n</tag>`: sorted, at most {@link MAX_DIAGNOSTICS_PER_BLOCK} lines, then `... and N more diagnostics`. Empty list → ''. */
export function formatBlock(tag: string, list: readonly Diagnostic[]): string {
  if (list.length === 0) return '';
  const sorted = sortDiagnostics(list);
  const lines = sorted.slice(0, MAX_DIAGNOSTICS_PER_BLOCK).map(formatDiagnostic);
  if (sorted.length > MAX_DIAGNOSTICS_PER_BLOCK)
    lines.push(`... and ${sorted.length - MAX_DIAGNOSTICS_PER_BLOCK} more diagnostics`);
  return `<${tag}>\n${lines.join('\n')}\n</${tag}>\n`;
}

/** Error and warning counts of a list. */
export function countProblems(list: readonly Diagnostic[]): { errors: number; warnings: number } {
  let errors = 0;
  let warnings = 0;
  for (const d of list) {
    if (d.severity === 'error') errors++;
    else if (d.severity === 'warning') warnings++;
  }
  return { errors, warnings };
}

/** `2 errors, 1 warning` */
export function describeCounts(c: { errors: number; warnings: number }): string {
  return `${c.errors} error${c.errors === 1 ? '' : 's'}, ${c.warnings} warning${c.warnings === 1 ? '' : 's'}`;
}

/** Errors and warnings only: what an edit result reports. */
export function problemsOnly(list: readonly Diagnostic[]): Diagnostic[] {
  return list.filter((d) => d.severity === 'error' || d.severity === 'warning');
}

function identity(d: Diagnostic): string {
  return `${d.path}\u0000${d.severity}\u0000${d.source ?? ''}\u0000${d.code ?? ''}\u0000${d.message}`;
}

/**
 * Splits `after` into the problems that were not in `before` and those that were. Matching ignores the
 * position (an edit above a problem moves it) and counts: two equal problems before and three after
 * leave one new.
 */
export function newSince(
  before: readonly Diagnostic[],
  after: readonly Diagnostic[],
): { added: Diagnostic[]; kept: Diagnostic[] } {
  const remaining = new Map<string, number>();
  for (const d of before) remaining.set(identity(d), (remaining.get(identity(d)) ?? 0) + 1);
  const added: Diagnostic[] = [];
  const kept: Diagnostic[] = [];
  for (const d of after) {
    const left = remaining.get(identity(d)) ?? 0;
    if (left > 0) {
      remaining.set(identity(d), left - 1);
      kept.push(d);
    } else {
      added.push(d);
    }
  }
  return { added, kept };
}

/** What the service found after a change, for {@link formatChangeReport}. */
export interface ChangeReport {
  /** the changed files (absolute) */
  files: string[];
  /** errors and warnings of the changed files that the change introduced */
  added: Diagnostic[];
  /** errors and warnings of other open files that appeared since the change */
  addedElsewhere: Diagnostic[];
  /** errors and warnings of the changed files that were there before the change */
  kept: Diagnostic[];
  /** files whose server did not report in time, with the reason (e.g. `typescript did not report within 5000 ms`) */
  missing: { path: string; reason: string }[];
}

/**
 * The text appended to an edit, write or patch result: `<file_diagnostics>` with the new problems of
 * the changed files, `<project_diagnostics>` with new problems elsewhere, and `<diagnostic_summary>`.
 * '' when there is nothing to say (no new problems, none kept, none missing).
 */
export function formatChangeReport(report: ChangeReport): string {
  let out = '';
  out += formatBlock('file_diagnostics', report.added);
  out += formatBlock('project_diagnostics', report.addedElsewhere);
  const summary: string[] = [];
  if (report.added.length || report.addedElsewhere.length || report.kept.length) {
    const which = report.files.length === 1 ? 'Current file' : 'Changed files';
    summary.push(`${which}: ${describeCounts(countProblems(report.added))} introduced by this change`);
    if (report.addedElsewhere.length)
      summary.push(`Project: ${describeCounts(countProblems(report.addedElsewhere))} introduced in other files`);
    if (report.kept.length)
      summary.push(`Already there before this change (not listed): ${describeCounts(countProblems(report.kept))}`);
  }
  for (const m of report.missing) summary.push(`No diagnostics for ${m.path}: ${m.reason}`);
  if (summary.length) out += `<diagnostic_summary>\n${summary.join('\n')}\n</diagnostic_summary>\n`;
  return out ? `\n${out}` : '';
}

/**
 * The `diagnostics` tool's output (as the original's): the file's problems (when a file is given), the
 * project's (every other file the servers reported on), and a summary. '' when there are none.
 */
export function formatDiagnosticsReport(
  file: string | undefined,
  fileDiagnostics: readonly Diagnostic[],
  projectDiagnostics: readonly Diagnostic[],
): string {
  let out = '';
  if (file) out += formatBlock('file_diagnostics', fileDiagnostics);
  out += formatBlock('project_diagnostics', projectDiagnostics);
  if (!out) return '';
  const lines: string[] = [];
  if (file) lines.push(`Current file: ${describeCounts(countProblems(fileDiagnostics))}`);
  lines.push(`Project: ${describeCounts(countProblems([...fileDiagnostics, ...projectDiagnostics]))}`);
  return `${out}<diagnostic_summary>\n${lines.join('\n')}\n</diagnostic_summary>\n`;
}
