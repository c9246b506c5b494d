/**
 * The project's data folder (`data.directory`, default `<project>/.opencode`): created mode 0700
 * (the original's), and given a `.gitignore` whenever it has none — also when the person made the
 * folder first, for `commands/` (the database, with prompts and file contents, could
 * end up committed).
 *
 * The `.gitignore` ignores everything opencode keeps there — the database and its `-wal`/`-shm`
 * files, MCP logs, the `init` flag, state and temporary files, and whatever a later version adds —
 * and lets through the folders a team shares in git ({@link SHARED_FOLDERS}). An existing
 * `.gitignore` is the person's and is never changed, except the `*` alone that earlier versions
 * wrote (it hid `commands/` from git too).
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { asStorageError } from './storage-errors.js';

/** Folders of the data directory meant to be committed and shared, with what each holds. */
export const SHARED_FOLDERS: readonly { name: string; holds: string }[] = [
  { name: 'commands', holds: 'custom commands, e.g. commands/git/commit.md is project:git:commit' },
  { name: 'tools', holds: 'custom tools, e.g. tools/deploy.yaml' },
  { name: 'plugins', holds: 'plugins, e.g. plugins/lint.ts' },
];

/** The `.gitignore` older opencode versions wrote: it ignored `commands/` too, so it is replaced. */
const OLD_GITIGNORE_TEXT = '*\n';

/** The name of the ignore file written into the data folder. */
export const DATA_GITIGNORE = '.gitignore';

/**
 * The text of the data folder's `.gitignore`: ignore all (`*`, the file itself too, so a run leaves
 * `git status` clean and grep does not search it), then let each shared folder with everything in it
 * through (`!commands/` re-includes the folder, `!commands/**` its contents, which `*` matches at
 * every depth).
 */
export function dataGitignoreText(): string {
  const lines = [
    '# Written by opencode. The database (your prompts and file contents), its logs and state stay',
    '# out of git; the folders a team shares are let through.',
    '*',
    ...SHARED_FOLDERS.flatMap(({ name }) => [`!${name}/`, `!${name}/**`]),
  ];
  return `${lines.join('\n')}\n`;
}

/**
 * Makes sure `dataDir` exists (created 0700) and holds a `.gitignore` (written when missing).
 * @throws {StorageError} when the disk is read-only, full or not writable, saying what to do; else
 * the fs error
 */
export function prepareDataDir(dataDir: string): void {
  try {
    const created = mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    // mkdir's mode is filtered by the umask; the original's 0700 is meant exactly
    if (created !== undefined) chmodSync(dataDir, 0o700);
    const ignoreFile = path.join(dataDir, DATA_GITIGNORE);
    if (!existsSync(ignoreFile)) writeFileSync(ignoreFile, dataGitignoreText(), { flag: 'wx' });
    else if (readIfSmall(ignoreFile) === OLD_GITIGNORE_TEXT) writeFileSync(ignoreFile, dataGitignoreText());
  } catch (err) {
    // another process wrote the .gitignore between the check and the write: it is there
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return;
    throw asStorageError(err, dataDir, 'data');
  }
}

function readIfSmall(file: string): string | undefined {
  try {
    return statSync(file).size <= OLD_GITIGNORE_TEXT.length ? readFileSync(file, 'utf8') : undefined;
  } catch {
    return undefined;
  }
}
