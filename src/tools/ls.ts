/**
 * `ls`: a folder as a tree (as the original), fixed: the tree is relative to the listed
 * folder (the original printed every ancestor of an absolute path as a nested folder), and the skip
 * rules apply below the root only (a project in a folder named `build` still lists).
 * {@link projectTree} renders the same tree for the system prompt.
 */
import { readdirSync, statSync, type Dirent } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { defineTool, ToolError } from './tool.js';
import { resolveToolPath } from './write-guard.js';
import { askBeforeSecretRead, secretPlaceOf, secretScope } from './secret-read.js';
import { globToRegExp } from './glob-pattern.js';
import { escapeLineBreaks } from './file-walk.js';
import { isHiddenName, LS_SKIPPED_EXTENSIONS, LS_SKIPPED_NAMES } from './ignore.js';
import { abortError } from '../abort.js';

const DESCRIPTION = `List a folder as an indented tree of files and subfolders (subfolders end in /), up to 1000 entries.

Use it to learn a project's layout or see what a folder holds. To find files by name use glob; to search inside files use grep.

Leaves out hidden entries (names starting with "."), dependency and build folders (node_modules, vendor, dist, build, target, bin, obj, __pycache__) and compiled files (*.pyc, *.so, *.dll, *.exe). \`ignore\` takes extra glob patterns matched against entry names, e.g. ["*.log", "fixtures"]. On a large tree, list a subfolder instead.`;

/** Most entries (files and folders) listed (the original's limit). */
export const LS_LIMIT = 1000;

const parameters = z.object({
  path: z.string().optional().describe('Folder to list; defaults to the working directory'),
  ignore: z.array(z.string()).optional().describe('Glob patterns of entry names to leave out'),
});

export const lsTool = defineTool({
  name: 'ls',
  description: DESCRIPTION,
  parameters,
  readOnly: true,
  // 1000 entries can pass 30,000 characters; the entry limit is the cap that tells the model what it missed
  maxOutputChars: 120_000,
  async run(input, ctx) {
    if (ctx.signal.aborted) throw abortError();
    const root = resolveToolPath(ctx, input.path || '.');
    const secret = secretPlaceOf(root, secretScope(ctx));
    if (secret) await askBeforeSecretRead(ctx, 'ls', secret);
    let st;
    try {
      st = statSync(root);
    } catch {
      throw new ToolError(`path does not exist: ${root}`);
    }
    if (!st.isDirectory()) throw new ToolError(`path is not a directory: ${root}`);
    const listing = listTree(root, { ignore: input.ignore, limit: LS_LIMIT });
    return {
      output: renderTree(root, listing),
      isError: false,
      metadata: { number_of_files: listing.entries.length, truncated: listing.truncated },
    };
  },
});

/** One listed entry: its root-relative `/`-separated path and whether it is a folder. */
export interface TreeEntry {
  path: string;
  isDir: boolean;
}

export interface TreeListing {
  entries: TreeEntry[];
  /** more entries exist than were listed */
  truncated: boolean;
  /** the most entries that were to be listed */
  limit: number;
}

/**
 * Walks `root` depth-first, names sorted in code-unit order (files and folders mixed, as Go's
 * `filepath.Walk` does), leaving out the skip list and names matching `ignore` globs. Symbolic links
 * are listed as files and not followed. Stops after `limit` entries.
 */
export function listTree(root: string, options: { ignore?: readonly string[]; limit?: number } = {}): TreeListing {
  const limit = options.limit ?? LS_LIMIT;
  const ignore = (options.ignore ?? []).flatMap((p) => {
    try {
      return [globToRegExp(p)];
    } catch {
      return []; // an invalid pattern ignores nothing, as filepath.Match's error did
    }
  });
  const entries: TreeEntry[] = [];
  let truncated = false;

  const visit = (dirAbs: string, dirRel: string): void => {
    let children: Dirent[];
    try {
      children = readdirSync(dirAbs, { withFileTypes: true });
    } catch {
      return; // unreadable: skipped, as the original did
    }
    children.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const child of children) {
      if (truncated) return;
      if (isSkipped(child.name, ignore)) continue;
      if (entries.length === limit) {
        truncated = true;
        return;
      }
      const rel = dirRel === '' ? child.name : `${dirRel}/${child.name}`;
      const isDir = child.isDirectory();
      entries.push({ path: rel, isDir });
      if (isDir) visit(join(dirAbs, child.name), rel);
    }
  };
  visit(root, '');
  return { entries, truncated, limit };
}

const skippedNames = new Set(LS_SKIPPED_NAMES.map((r) => r.name));
const skippedExtensions = LS_SKIPPED_EXTENSIONS.map((r) => r.name);

function isSkipped(name: string, ignore: readonly RegExp[]): boolean {
  if (isHiddenName(name) || skippedNames.has(name)) return true;
  if (skippedExtensions.some((ext) => name.endsWith(ext))) return true;
  return ignore.some((re) => re.test(name));
}

/**
 * The tree text: `- <root>/`, then one `- name` line per entry indented two spaces per level,
 * folders with a trailing `/`. Over the limit, the original's sentence comes first.
 */
export function renderTree(root: string, listing: TreeListing): string {
  const lines = [`- ${escapeLineBreaks(root.endsWith('/') ? root : `${root}/`)}`];
  for (const entry of listing.entries) {
    const depth = entry.path.split('/').length;
    const name = entry.path.slice(entry.path.lastIndexOf('/') + 1);
    lines.push(`${'  '.repeat(depth)}- ${escapeLineBreaks(name)}${entry.isDir ? '/' : ''}`);
  }
  const tree = `${lines.join('\n')}\n`;
  if (!listing.truncated) return tree;
  const n = listing.limit;
  return `There are more than ${n} files in the directory. Use a more specific path or use the Glob tool to find specific files. The first ${n} files and directories are included below:\n\n${tree}`;
}

/** The `ls` tree of `dir` for the system prompt's `<project>` block, as the original's prompt has it. */
export function projectTree(dir: string, limit = LS_LIMIT): string {
  const root = resolve(dir);
  return renderTree(root, listTree(root, { limit }));
}
