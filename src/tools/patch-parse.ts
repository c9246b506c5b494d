/**
 * Parsing the `patch` tool's text format (the original's, OpenAI's "apply_patch" style):
 *
 * ```
 * *** Begin Patch
 * *** Update File: src/a.ts
 * *** Move to: src/b.ts            (optional)
 * @@ function greet() {            (optional anchor: a line above the change)
 *  context
 * -removed
 * +added
 * *** End of File                  (optional: the hunk ends at the end of the file)
 * *** Add File: src/new.ts
 * +line
 * *** Delete File: src/old.ts
 * *** End Patch
 * ```
 *
 * Pure: no file is read here. Matching the hunks against a file is `patch-apply.ts`.
 * Differences from the original parser (`internal/diff/patch.go`), each to stop a silent mistake:
 * every error names its line (1-based, in the trimmed patch text); a blank line between file sections
 * is allowed; text after an early
 * `*** End Patch` is an error, not ignored; a unified-diff hunk header (`@@ -12,7 +12,8 @@`) counts as
 * a bare `@@`, so its numbers are not taken for an anchor; CRLF in the patch text is read as LF.
 * Like the original, a hunk line with no ` `/`+`/`-` prefix is taken as a context line.
 *
 * Like codex's apply_patch (`codex-rs/apply-patch/src/parser.rs`, scenarios 017, 018 and 020), the
 * `*** Begin Patch` and `*** End Patch` lines and a file header where one is expected (after Begin,
 * after a Delete, after an Add's lines) may carry spaces around them; the last line is always the end
 * marker, so ` *** End Patch` is never read as a context line. Inside an Update's hunk a line starting
 * with a space stays a context line, as in codex.
 */

/** One run of removed and added lines inside a hunk. */
export interface PatchChunk {
  /** where the removed lines start, as an index into the hunk's {@link PatchHunk.oldLines} */
  oldIndex: number;
  removed: string[];
  added: string[];
}

/** One `@@` section of an Update: the lines it expects in the file and the changes among them. */
export interface PatchHunk {
  /** the text after `@@ `: a line to find above the change, or undefined for a bare `@@` */
  anchor?: string;
  /** the context and removed lines, in order: what the file must contain */
  oldLines: string[];
  chunks: PatchChunk[];
  /** marked `*** End of File`: these lines end the file */
  endOfFile: boolean;
  /** 1-based line in the patch text where the hunk starts */
  line: number;
}

export type PatchOperation =
  | { kind: 'update'; path: string; moveTo?: string; hunks: PatchHunk[]; line: number }
  /** `content` is the added lines joined by `\n`, ending with `\n` (empty for no lines) */
  | { kind: 'add'; path: string; content: string; line: number }
  | { kind: 'delete'; path: string; line: number };

/** A patch text that does not follow the format; the message names the line. */
export class PatchParseError extends Error {
  constructor(
    message: string,
    /** 1-based line in the trimmed patch text, when the problem is on one line */
    readonly line?: number,
  ) {
    super(line === undefined ? message : `line ${line}: ${message}`);
    this.name = 'PatchParseError';
  }
}

const BEGIN = '*** Begin Patch';
const END = '*** End Patch';
const UPDATE = '*** Update File: ';
const ADD = '*** Add File: ';
const DELETE = '*** Delete File: ';
const MOVE = '*** Move to: ';
const END_OF_FILE = '*** End of File';
/** `@@ -12,7 +12,8 @@` with optional text after it: a unified-diff hunk header */
const UNIFIED_HUNK_HEADER = /^@@ -\d+(,\d+)? \+\d+(,\d+)? @@/;

/**
 * Parses `text` into file operations, in patch order. Throws {@link PatchParseError}.
 * The text is trimmed; its first line must start with `*** Begin Patch` and its last must be
 * `*** End Patch` (the original's rule). A path may appear once only.
 */
export function parsePatch(text: string): PatchOperation[] {
  const lines = withoutHeredoc(text.trim().replace(/\r\n/g, '\n').split('\n'));
  if (lines.length < 2 || !lines[0].trim().startsWith(BEGIN) || lines[lines.length - 1].trim() !== END) {
    throw new PatchParseError(`a patch must start with a line "${BEGIN}" and end with a line "${END}"`);
  }
  return new Parser(lines).parse();
}

/** `<<EOF`, `<<'EOF'`, `<<"EOF"` (spaces allowed): the first line of a patch wrapped as a shell heredoc. */
const HEREDOC_START = /^<<\s*(['"]?)EOF\1$/;

/**
 * `lines` without a shell heredoc around them (`<<'EOF'` … `EOF`), which models copy from the
 * command-line form of apply_patch; codex's lenient parser takes them off too. Anything else is kept.
 */
function withoutHeredoc(lines: string[]): string[] {
  if (lines.length >= 4 && HEREDOC_START.test(lines[0].trim()) && lines[lines.length - 1].trim() === 'EOF')
    return lines.slice(1, -1);
  return lines;
}

/** `line` (trimmed) is the header `prefix` with a path, or without one (an error reported by takePath) */
function isHeader(line: string, prefix: string): boolean {
  return line.startsWith(prefix) || line === prefix.trimEnd();
}

class Parser {
  /** index into `lines`; the reported line number is index + 1 */
  private index = 1;
  private readonly seen = new Map<string, number>();
  /** index of the last line: the `*** End Patch` marker, checked by {@link parsePatch} */
  private readonly end: number;

  constructor(private readonly lines: string[]) {
    this.end = lines.length - 1;
  }

  parse(): PatchOperation[] {
    const operations: PatchOperation[] = [];
    while (this.index < this.end && !this.at(END)) {
      // a header where one is expected may carry spaces around it (codex's rule)
      const line = this.lines[this.index].trim();
      const start = this.index + 1;
      if (isHeader(line, UPDATE)) {
        const path = this.takePath(UPDATE);
        // the Move line belongs to the header, so it may carry spaces around it too
        const moveTo = this.lines[this.index]?.trim().startsWith(MOVE) ? this.takePath(MOVE) : undefined;
        operations.push({
          kind: 'update',
          path,
          ...(moveTo === undefined ? {} : { moveTo }),
          hunks: this.parseHunks(),
          line: start,
        });
      } else if (isHeader(line, ADD)) {
        const path = this.takePath(ADD);
        operations.push({ kind: 'add', path, content: this.parseAddedLines(), line: start });
      } else if (isHeader(line, DELETE)) {
        operations.push({ kind: 'delete', path: this.takePath(DELETE), line: start });
      } else if (line === '') {
        this.index++; // a blank line between file sections
      } else {
        throw new PatchParseError(
          `unknown line: ${JSON.stringify(this.lines[this.index])}. Expected "${UPDATE.trim()}", "${ADD.trim()}", "${DELETE.trim()}" or "${END}"`,
          start,
        );
      }
    }
    if (this.index !== this.end) {
      throw new PatchParseError(`"${END}" before the end of the patch text`, this.index + 1);
    }
    return operations;
  }

  /** the current line, compared without surrounding whitespace, is `marker` */
  private at(marker: string): boolean {
    return this.lines[this.index].trim() === marker;
  }

  /** the current line is the last one, or an `*** End Patch` or file header (spaces around it allowed) */
  private atHeader(): boolean {
    if (this.index >= this.end) return true;
    const line = this.lines[this.index].trim();
    return line === END || isHeader(line, UPDATE) || isHeader(line, ADD) || isHeader(line, DELETE);
  }

  private takePath(prefix: string): string {
    const number = this.index + 1;
    const path = this.lines[this.index].trim().slice(prefix.length).trim();
    if (path === '') throw new PatchParseError(`"${prefix.trim()}" without a path`, number);
    if (prefix !== MOVE) {
      const first = this.seen.get(path);
      if (first !== undefined) {
        throw new PatchParseError(
          `duplicate path ${path} (already in the patch at line ${first}); put all changes to one file in one section`,
          number,
        );
      }
      this.seen.set(path, number);
    }
    this.index++;
    return path;
  }

  private parseAddedLines(): string {
    const added: string[] = [];
    // an added line starts with "+", so a header with spaces before it is still a header
    for (; !this.atHeader(); this.index++) {
      const line = this.lines[this.index];
      if (!line.startsWith('+')) {
        throw new PatchParseError(
          `every line of an added file must start with "+" (an empty line is "+"); got ${JSON.stringify(line)}`,
          this.index + 1,
        );
      }
      added.push(line.slice(1));
    }
    return added.length ? `${added.join('\n')}\n` : '';
  }

  private parseHunks(): PatchHunk[] {
    const hunks: PatchHunk[] = [];
    // a hunk's lines that start with a space are context, so here only an unindented header ends it
    while (this.index < this.end && !this.startsUnindentedHeader(this.lines[this.index])) {
      const line = this.lines[this.index];
      const start = this.index + 1;
      let anchor: string | undefined;
      if (line.trimEnd() === '@@' || UNIFIED_HUNK_HEADER.test(line)) {
        this.index++;
      } else if (line.startsWith('@@ ')) {
        anchor = line.slice(3);
        if (anchor.trim() === '') anchor = undefined;
        this.index++;
      } else if (hunks.length > 0 || line.startsWith('***')) {
        // the first hunk may leave out its `@@`; the others are separated by it
        throw new PatchParseError(
          `expected "@@" to start the next hunk, or a file header; got ${JSON.stringify(line)}`,
          start,
        );
      }
      hunks.push({ ...(anchor === undefined ? {} : { anchor }), ...this.parseHunkBody(), line: start });
    }
    return hunks;
  }

  private startsUnindentedHeader(line: string): boolean {
    return line.trimEnd() === END || line.startsWith(UPDATE) || line.startsWith(ADD) || line.startsWith(DELETE);
  }

  /** The hunk's lines up to the next `@@`, `***` line or header (the original's `peekNextSection`). */
  private parseHunkBody(): Omit<PatchHunk, 'anchor' | 'line'> {
    const oldLines: string[] = [];
    const chunks: PatchChunk[] = [];
    let removed: string[] = [];
    let added: string[] = [];
    const flush = () => {
      if (removed.length || added.length) chunks.push({ oldIndex: oldLines.length - removed.length, removed, added });
      removed = [];
      added = [];
    };
    for (; this.index < this.end; this.index++) {
      const line = this.lines[this.index];
      if (line.startsWith('@@') || line.startsWith('***')) break;
      const mark = line[0];
      if (mark === '+') {
        added.push(line.slice(1));
      } else if (mark === '-') {
        removed.push(line.slice(1));
        oldLines.push(line.slice(1));
      } else {
        flush();
        // ` context`, an empty line, or (leniently, as the original) a line that lost its leading space
        oldLines.push(mark === ' ' ? line.slice(1) : line);
      }
    }
    flush();
    const endOfFile = this.index < this.end && this.lines[this.index].trimEnd() === END_OF_FILE;
    if (endOfFile) this.index++;
    return { oldLines, chunks, endOfFile };
  }
}
