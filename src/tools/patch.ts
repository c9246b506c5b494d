/**
 * The `patch` tool (the original's, fixed): adds, updates, moves and deletes several files in one
 * call, in the `*** Begin Patch` format (parsed by `patch-parse.ts`, matched by `patch-apply.ts`).
 *
 * Fixes over the original, which wrote files one by one in random (Go map) order and stopped at the
 * first error: every hunk of every file is matched and every new content encoded before anything is
 * asked or written; the permission requests come in patch order, all before the first write; and if
 * a write fails, what was already written is put back byte for byte (deleted files re-created, added
 * files removed), so a patch is applied whole or not at all. Files keep their own encoding, BOM, line
 * endings and mode (`text-document.ts`). An added file ends with a newline (the original wrote none).
 *
 * With an editor holding the files (`file-access.ts`, `opencode acp`): hunks are matched against the
 * editor's text (unsaved changes included), and when the editor takes writes, added and updated files
 * go to it as text and deletions and the sources of moves are removed from disk afterwards (ACP has no
 * delete); see {@link applyThroughEditor}.
 */
import { lstatSync, readFileSync, readlinkSync, rmdirSync, rmSync, statSync, symlinkSync, unlinkSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import { fileDiff, type FileDiff } from './diff.js';
import { applyHunks, HunkMismatchError, MAX_PATCH_FUZZ, type LooseMatch } from './patch-apply.js';
import { parsePatch, PatchParseError, type PatchOperation } from './patch-parse.js';
import { decodeDocument, encodeDocument, textAsRead, writeFileAtomic, type TextDocument } from './text-document.js';
import type { KnownFileState } from './file-history.js';
import { readsThroughEditor, textForEditor } from './file-access.js';
import { defineTool, ToolError, type ToolContext } from './tool.js';
import { ensureParentDirectory, missingParentDirectories, requireRegularFile } from './file-io.js';
import {
  readFileToChange,
  recordFileWrite,
  requireFreshRead,
  resolveToolPath,
  unchangedSinceRead,
} from './write-guard.js';
import { resolveAllLinks } from '../permission/real-path.js';
import type { FilesSubject } from '../permission/types.js';
import { lspDiagnosticsAfterWrite } from './diagnostics.js';

const DESCRIPTION = `Applies a patch: changes to one or more files in one call, all of them or (if anything fails) none.
Prefer edit for one small change in one file; use patch for several changes in a file or across files, and to add, delete or move files.

Read every file you update or delete with view first. Format:
*** Begin Patch
*** Update File: src/app.ts
@@ function main() {
   const a = 1;
-  run(a);
+  run(a, true);
 }
*** Add File: src/util.ts
+export const x = 1;
*** Delete File: src/old.ts
*** End Patch

- Update: "*** Move to: <path>" right after the header also renames the file. Each hunk starts with "@@", or "@@ <a line above it>" to place it. Its lines start with " " (context), "-" (remove) or "+" (add). Give about 3 lines of context above and below each change, copied exactly; hunks in file order. "*** End of File" after a hunk pins it to the end of the file; a hunk of only "+" lines under a bare "@@" is added at the end of the file.
- Add: every line starts with "+". The file must not exist.
- Paths: absolute, or relative to the project directory.
If a hunk does not match, the error shows the closest lines of the file: fix the hunk from them and send the whole patch again.`;

const parameters = z.object({
  patch_text: z.string().describe('The full patch text, from "*** Begin Patch" to "*** End Patch"'),
});

/** The bytes that were at a path before the patch, to put back if a later write fails. */
interface Original {
  bytes: Buffer;
  /** permission bits */
  mode: number;
  /** set when the path is a symbolic link (a deleted link is re-created as a link) */
  linkTarget?: string;
}

/** One file's change, fully prepared: nothing left to compute or check but the disk itself. */
interface FileChange {
  kind: 'add' | 'update' | 'delete';
  /** absolute */
  path: string;
  /** absolute destination of a move */
  moveTo?: string;
  /** decoded text before (null for an added file) and after ('' for a deleted one) */
  before: string | null;
  after: string;
  /** the new content in the file's own encoding (add, update) */
  bytes?: Buffer;
  /** that encoding (iconv-lite name; update, delete) */
  encoding?: string;
  /** what is on disk now (update, delete) */
  original?: Original;
  /** what the tools read (update, delete): the disk's bytes, or with an editor holding the files its text encoded (for undo) */
  known?: KnownFileState;
  diff: FileDiff;
  fuzz: number;
  loose: LooseMatch[];
}

export const patchTool = defineTool({
  name: 'patch',
  description: DESCRIPTION,
  parameters,
  asks: 'subject', // asks with what it touches before it changes anything
  async run({ patch_text: patchText }, ctx) {
    if (patchText.trim() === '') throw new ToolError('patch_text is required');
    const operations = parse(patchText);
    requireDistinctPaths(operations, ctx);

    const changes: FileChange[] = [];
    const mismatches: string[] = [];
    for (const operation of operations) {
      try {
        changes.push(await prepareChange(operation, ctx));
      } catch (err) {
        if (!(err instanceof HunkMismatchError)) throw err;
        mismatches.push(`${resolveToolPath(ctx, operation.path)}: ${err.message}`);
      }
    }
    if (mismatches.length) {
      throw new ToolError(
        `${mismatches.join('\n\n')}\n\nNo file was changed. Fix the hunk from the closest lines shown (or view the file again) and send the whole patch again.`,
      );
    }
    requireCloseMatches(changes);

    for (const change of changes) {
      // a move is judged by both paths: the rules and "outside the project" hold for the destination too
      await ctx.askPermission(permissionRequest(change), filesSubject(change));
    }
    ctx.signal.throwIfAborted();
    for (const change of changes) await requireUnchangedWhileAsking(ctx, change);

    if (ctx.fileAccess?.writeTextFile) await applyThroughEditor(ctx, changes);
    else applyChanges(changes);

    for (const change of changes) {
      if (change.moveTo) {
        recordFileWrite(ctx, change.path, change.before, '', change.known);
        recordFileWrite(ctx, change.moveTo, null, change.after);
      } else {
        recordFileWrite(ctx, change.path, change.before, change.after, change.known);
      }
    }
    const additions = changes.reduce((sum, c) => sum + c.diff.additions, 0);
    const removals = changes.reduce((sum, c) => sum + c.diff.removals, 0);
    const diagnostics = await lspDiagnosticsAfterWrite(
      ctx,
      changes.flatMap((c) =>
        c.moveTo
          ? [
              { path: c.path, text: null },
              { path: c.moveTo, text: c.after },
            ]
          : [{ path: c.path, text: c.kind === 'delete' ? null : c.after }],
      ),
    );
    return {
      output: `Patch applied successfully. ${changes.length} files changed, ${additions} additions, ${removals} removals${diagnostics}`,
      isError: false,
      metadata: {
        files_changed: changes.map((c) => c.moveTo ?? c.path),
        additions,
        removals,
        diff: changes.map((c) => c.diff.diff).join(''),
      },
    };
  },
});

function parse(patchText: string): PatchOperation[] {
  try {
    const operations = parsePatch(patchText);
    if (operations.length === 0)
      throw new ToolError(
        'the patch changes no file: add an "*** Update File:", "*** Add File:" or "*** Delete File:" section',
      );
    return operations;
  } catch (err) {
    if (err instanceof PatchParseError) throw new ToolError(`failed to parse patch: ${err.message}`);
    throw err;
  }
}

/**
 * Each file at most once, counting move destinations, after resolving: `a.ts` and `./a.ts` are one
 * file, and so are a symbolic link and its target or two hard links (same device and inode). Two
 * sections on one file through a link would be applied one over the other: the first change would
 * be lost and the result would say "2 files changed".
 */
function requireDistinctPaths(operations: PatchOperation[], ctx: ToolContext): void {
  const seen = new Map<string, { line: number; path: string }>();
  for (const operation of operations) {
    const paths = [operation.path];
    if (operation.kind === 'update' && operation.moveTo !== undefined) paths.push(operation.moveTo);
    for (const path of new Set(paths.map((p) => resolveToolPath(ctx, p)))) {
      const keys = fileIdentities(path);
      const first = keys.map((key) => seen.get(key)).find((f) => f !== undefined);
      if (first !== undefined) {
        const same = first.path === path ? '' : ` (the same file as ${first.path})`;
        throw new ToolError(
          `failed to parse patch: line ${operation.line}: ${path}${same} is already changed at line ${first.line}; put all changes to one file in one section`,
        );
      }
      for (const key of keys) seen.set(key, { line: operation.line, path });
    }
  }
}

/** The names one file goes by: its absolute path, where its links lead, and its device and inode when it exists. */
function fileIdentities(path: string): string[] {
  const keys = [path];
  const real = resolveAllLinks(path);
  if (real !== undefined && real !== path) keys.push(real);
  try {
    const stats = statSync(path);
    keys.push(`inode:${stats.dev}:${stats.ino}`);
  } catch {
    // nothing there yet (an Add, a Move's destination): its paths are its names
  }
  return keys;
}

/** Checks the preconditions, matches the hunks and encodes the result. Throws ToolError or HunkMismatchError. */
async function prepareChange(operation: PatchOperation, ctx: ToolContext): Promise<FileChange> {
  const path = resolveToolPath(ctx, operation.path);
  if (operation.kind === 'add') {
    requireCreatable(path, `file already exists and cannot be added: ${path}`);
    const bytes = encodeDocument(undefined, operation.content);
    // what view will read back (a leading U+FEFF is a BOM then), so history versions compare equal
    const after = textAsRead(operation.content);
    return {
      kind: 'add',
      path,
      before: null,
      after,
      bytes,
      diff: fileDiff(ctx.cwd, path, '', after),
      fuzz: 0,
      loose: [],
    };
  }

  const doing = operation.kind === 'delete' ? 'deleting' : 'patching';
  const editor = readsThroughEditor(ctx);
  const original = readOriginal(ctx, path, doing, !editor);
  // decoded from the very bytes a failed patch would put back; with an editor holding the files, its
  // text (unsaved changes included), checked against the text last read through it
  const document: TextDocument = editor
    ? await readFileToChange(ctx, path, doing)
    : { path, ...decodeDocument(path, original.bytes), mode: original.mode };
  const known: KnownFileState = editor
    ? { bytes: document.bytes, mode: original.mode, linkTarget: original.linkTarget }
    : original;
  const before = document.text;
  if (operation.kind === 'delete') {
    return {
      kind: 'delete',
      path,
      before,
      after: '',
      original,
      known,
      encoding: document.format.encoding,
      diff: fileDiff(ctx.cwd, path, before, ''),
      fuzz: 0,
      loose: [],
    };
  }

  const updated = applyHunks(before, operation.hunks);
  let moveTo = operation.moveTo === undefined ? undefined : resolveToolPath(ctx, operation.moveTo);
  if (moveTo === path) moveTo = undefined;
  if (moveTo) requireCreatable(moveTo, `cannot move ${path} to ${moveTo}: a file already exists there`);
  if (!moveTo && updated.text === before) {
    throw new ToolError(`${path}: the patch makes no change to this file. No file was changed.`);
  }
  // a pure rename keeps the bytes exactly (on disk; the editor is given text)
  const bytes =
    updated.text === before && !editor ? original.bytes : encodeDocument(document, updated.text, updated.lineSources);
  const diff = moveTo
    ? moveDiff(ctx.cwd, path, moveTo, before, updated.text)
    : fileDiff(ctx.cwd, path, before, updated.text);
  return {
    kind: 'update',
    path,
    moveTo,
    before,
    after: updated.text,
    bytes,
    original,
    known,
    encoding: document.format.encoding,
    diff,
    fuzz: updated.fuzz,
    loose: updated.loose,
  };
}

/**
 * An existing regular file (or link to one); when `checkRead`, one the model has read and that has not
 * changed on disk since (with an editor holding the files, its text is checked instead).
 */
function readOriginal(ctx: ToolContext, path: string, doing: string, checkRead: boolean): Original {
  const link = lstatIfExists(path);
  const stats = link && (link.isSymbolicLink() ? statIfExists(path) : link);
  if (!link || !stats) throw new ToolError(`file not found: ${path}`);
  if (stats.isDirectory()) throw new ToolError(`path is a directory, not a file: ${path}`);
  requireRegularFile(path, stats);
  if (checkRead) requireFreshRead(ctx, path, doing);
  return {
    bytes: readFileSync(path),
    mode: stats.mode & 0o7777,
    ...(link.isSymbolicLink() ? { linkTarget: readlinkSync(path) } : {}),
  };
}

/** Nothing at `path`, its nearest existing ancestor is a directory, and it is not on /proc, /sys or /dev. */
function requireCreatable(path: string, existsMessage: string): void {
  if (lstatIfExists(path)) throw new ToolError(existsMessage);
  missingParentDirectories(path);
}

function requireCloseMatches(changes: FileChange[]): void {
  const fuzz = changes.reduce((sum, c) => sum + c.fuzz, 0);
  if (fuzz <= MAX_PATCH_FUZZ) return;
  const notes = changes.flatMap((c) =>
    c.loose.map((m) => `- ${c.path}: hunk ${m.hunk} (patch line ${m.patchLine}) ${m.reason} (fuzz ${m.fuzz})`),
  );
  throw new ToolError(
    `patch contains fuzzy matches (fuzz level: ${fuzz}, at most ${MAX_PATCH_FUZZ} allowed):\n${notes.join('\n')}\n\n` +
      'No file was changed. Copy the context lines exactly from the file, with their whitespace, and send the whole patch again.',
  );
}

/** One request per file (as the original), with the file as its path. */
function permissionRequest(change: FileChange) {
  const description =
    change.kind === 'add'
      ? `Create file ${change.path}`
      : change.kind === 'delete'
        ? `Delete file ${change.path}`
        : change.moveTo
          ? `Update file ${change.path} → ${change.moveTo}`
          : `Update file ${change.path}`;
  const action = change.kind === 'add' ? 'create' : change.kind;
  return { action, description, params: { file_path: change.path, diff: change.diff.diff }, path: change.path };
}

/** What the rules judge for one change, and what it does to each path (the reason line says creates/deletes). */
function filesSubject(change: FileChange): FilesSubject {
  if (change.moveTo)
    return { kind: 'files', paths: [change.path, change.moveTo], deleted: [change.path], created: [change.moveTo] };
  if (change.kind === 'add') return { kind: 'files', paths: [change.path], created: [change.path] };
  if (change.kind === 'delete') return { kind: 'files', paths: [change.path], deleted: [change.path] };
  return { kind: 'files', paths: [change.path] };
}

/** After the person answered (maybe minutes later): nothing changed under us. Nothing is written yet. */
async function requireUnchangedWhileAsking(ctx: ToolContext, change: FileChange): Promise<void> {
  if (change.kind !== 'add') {
    if (!(await unchangedSinceRead(ctx, change.path))) {
      throw new ToolError(
        `File ${change.path} changed while waiting for permission. No file was changed. Read it again with the view tool and redo the patch.`,
      );
    }
  }
  for (const created of [change.kind === 'add' ? change.path : change.moveTo]) {
    if (created && lstatIfExists(created)) {
      throw new ToolError(
        `File ${created} was created by someone else while waiting for permission. No file was changed. Read it with the view tool and redo the patch.`,
      );
    }
  }
}

/** A done step and how to take it back: at once on disk, or (`Promise<void>`) through the editor. */
interface AppliedStep<Undone extends void | Promise<void> = void> {
  path: string;
  undo(): Undone;
}

/**
 * Writes every change in patch order (each write atomic: temp file + rename). If one fails, the
 * steps already done are undone in reverse order and a ToolError says so.
 */
function applyChanges(changes: FileChange[]): void {
  const done: AppliedStep[] = [];
  let current = '';
  try {
    for (const change of changes) {
      current = change.moveTo ?? change.path;
      if (change.kind === 'add') {
        done.push(createFile(change.path, change.bytes!));
      } else if (change.kind === 'delete') {
        done.push(removeFile(change.path, change.original!));
      } else if (change.moveTo) {
        done.push(createFile(change.moveTo, change.bytes!, change.original!.mode));
        current = change.path;
        done.push(removeFile(change.path, change.original!));
      } else {
        const { path, original } = change;
        writeFileAtomic(path, change.bytes!);
        done.push({ path, undo: () => writeFileAtomic(path, original!.bytes, { mode: original!.mode }) });
      }
    }
  } catch (err) {
    const unrestored: string[] = [];
    for (const step of done.reverse()) {
      try {
        step.undo();
      } catch (undoErr) {
        unrestored.push(`${step.path} (${(undoErr as Error).message})`);
      }
    }
    throw writeFailed(current, err, unrestored);
  }
}

/**
 * {@link applyChanges} with an editor that takes writes (ACP's `fs/write_text_file`, which has no
 * delete): first every added and updated file's new text goes to the editor in patch order (a move's
 * to its destination), then the deleted files and the sources of moves are removed from disk. If a
 * step fails, the steps done are undone in reverse order: an updated file gets its text as read back
 * through the editor, a created one is removed from disk (with the folders made for it), a removed
 * one is put back on disk. Everything was checked before the first write, as on disk.
 */
async function applyThroughEditor(ctx: ToolContext, changes: FileChange[]): Promise<void> {
  const writeTextFile = ctx.fileAccess!.writeTextFile!;
  // putting back is not cancelled with the call: a half-applied patch is worse than a late answer
  const write = (path: string, text: string, signal = ctx.signal) => writeTextFile(ctx.sessionId, path, text, signal);
  const done: AppliedStep<void | Promise<void>>[] = [];
  let current = '';
  try {
    for (const change of changes) {
      if (change.kind === 'delete') continue;
      const path = (current = change.moveTo ?? change.path);
      const text = textForEditor(change.bytes!, change.encoding ?? 'utf8');
      if (change.kind === 'add' || change.moveTo) {
        const firstCreatedDir = ensureParentDirectory(path);
        done.push({
          path,
          undo: () => {
            rmSync(path, { force: true });
            removeCreatedDirs(path, firstCreatedDir);
          },
        });
        await write(path, text);
      } else {
        await write(path, text);
        const before = change.known?.bytes ? textForEditor(change.known.bytes, change.encoding) : change.before!;
        done.push({ path, undo: () => write(path, before, new AbortController().signal) });
      }
    }
    for (const change of changes) {
      if (change.kind !== 'delete' && !change.moveTo) continue;
      current = change.path;
      done.push(removeFile(change.path, change.original!));
    }
  } catch (err) {
    const unrestored: string[] = [];
    for (const step of done.reverse()) {
      try {
        await step.undo();
      } catch (undoErr) {
        unrestored.push(`${step.path} (${(undoErr as Error).message})`);
      }
    }
    throw writeFailed(current, err, unrestored);
  }
}

/** Creates `path` (and missing parent directories); the undo removes both again. */
function createFile(path: string, bytes: Buffer, mode?: number): AppliedStep {
  const firstCreatedDir = ensureParentDirectory(path);
  try {
    writeFileAtomic(path, bytes, mode === undefined ? undefined : { mode });
  } catch (err) {
    removeCreatedDirs(path, firstCreatedDir);
    throw err;
  }
  return {
    path,
    undo: () => {
      unlinkSync(path);
      removeCreatedDirs(path, firstCreatedDir);
    },
  };
}

/** Removes `path` from disk; the undo puts its bytes (or its link) back. */
function removeFile(path: string, original: Original): AppliedStep {
  unlinkSync(path);
  return {
    path,
    undo: () => {
      if (original.linkTarget !== undefined) symlinkSync(original.linkTarget, path);
      else writeFileAtomic(path, original.bytes, { mode: original.mode });
    },
  };
}

/** Removes the empty directories from `path`'s parent up to `firstCreatedDir` (what mkdir made). */
function removeCreatedDirs(path: string, firstCreatedDir: string | undefined): void {
  if (firstCreatedDir === undefined) return;
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    try {
      rmdirSync(dir);
    } catch {
      return;
    }
    if (dir === firstCreatedDir || dirname(dir) === dir) return;
  }
}

/** The diff of a moved file: `a/<old>` to `b/<new>`. */
function moveDiff(cwd: string, from: string, to: string, before: string, after: string): FileDiff {
  const change = fileDiff(cwd, to, before, after);
  if (change.diff === '') return change;
  const fromHeader = fileDiff(cwd, from, before, after).diff.split('\n', 1)[0];
  return { ...change, diff: change.diff.replace(/^[^\n]*/, fromHeader) };
}

function lstatIfExists(path: string) {
  return statOrUndefined(() => lstatSync(path));
}

function statIfExists(path: string) {
  return statOrUndefined(() => statSync(path));
}

function statOrUndefined<T>(stat: () => T): T | undefined {
  try {
    return stat();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // ENOTDIR: a parent is a file, so nothing is at the path
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw err;
  }
}

/** The error of a patch whose write of `current` failed after the files already written were taken back; `unrestored` names those that could not be. */
function writeFailed(current: string, err: unknown, unrestored: string[]): ToolError {
  const outcome = unrestored.length
    ? `These files could not be put back as they were: ${unrestored.join(', ')}.`
    : 'The files already written were put back as they were: no file was changed.';
  return new ToolError(`failed to apply patch: writing ${current} failed: ${(err as Error).message}. ${outcome}`);
}
