/**
 * A banned command recognised by what it is, not only by its name: a symbolic link to
 * curl (`ln -s /usr/bin/curl k && ./k`) is curl, and so is a renamed copy (`cp /usr/bin/curl k`).
 *
 * A program is found the way bash finds it: a word with a `/` is a path (relative to the directory
 * it runs in), any other name is looked up on `PATH`. Then:
 * - a link is judged by the name of the file it finally points to;
 * - a regular file is judged by its content: when its size equals that of a banned program found on
 *   `PATH`, the two SHA-256 hashes are compared.
 *
 * Kept cheap: a file's hash is computed only when its size matches, and cached by path, size and
 * modification time; the banned programs on a `PATH` are looked up once per `PATH` value (their
 * hashes are re-checked by size and modification time on each use).
 */
import { createHash } from 'node:crypto';
import { accessSync, constants, lstatSync, readFileSync, realpathSync, statSync, type Stats } from 'node:fs';
import { basename, delimiter, join, resolve } from 'node:path';
import { BANNED_COMMANDS, bannedCommand, type BannedCommand } from './banned-commands.js';

/** A program the command line runs (see `ProgramUse` in `shell-analysis.ts`). */
export interface ProgramReference {
  name: string;
  /** the command word as given: `curl`, `./bin/k`, `/usr/bin/curl` */
  invokedAs: string;
  /** the directory it runs in, when known */
  dir?: string;
}

/** Files larger than this are not hashed (no banned program is that large; a copy of one would not be either). */
const MAX_HASHED_BYTES = 64 * 1024 * 1024;

interface Fingerprint {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  sha256: string;
}

const hashes = new Map<string, Fingerprint>();
const bannedOnPath = new Map<string, { path: string; entry: BannedCommand }[]>();

/**
 * The banned command that `program` really is, when its name is not already banned: a link to one,
 * or a copy of one found on `pathEnv`. `undefined` when it is neither, or cannot be found or read.
 */
export function bannedByIdentity(
  program: ProgramReference,
  options: { cwd: string; pathEnv?: string },
): BannedCommand | undefined {
  const file = locate(program, options.cwd, options.pathEnv);
  if (!file) return undefined;
  let real: string;
  let stats: Stats;
  try {
    real = realpathSync(file);
    stats = statSync(real);
  } catch {
    return undefined; // a dangling link or a file that went away: nothing runs
  }
  if (!stats.isFile()) return undefined;
  const byTarget = bannedCommand(basename(real));
  if (byTarget) return byTarget;
  for (const banned of bannedPrograms(options.pathEnv)) {
    const size = sizeOf(banned.path);
    if (size !== stats.size) continue; // the usual case: no file is hashed
    const bannedHash = fingerprint(banned.path);
    if (!bannedHash) continue;
    const candidate = fingerprint(real, stats);
    if (candidate && candidate.sha256 === bannedHash.sha256) return banned.entry;
  }
  return undefined;
}

/**
 * The name of the program a link really runs (`del` → `/bin/rm` is `rm`), when `program` is a
 * symbolic link to a file of another name: rules then judge it under that name too (`"rm *": "deny"`
 * holds for `./del x`). undefined for anything else.
 */
export function linkTargetName(
  program: ProgramReference,
  options: { cwd: string; pathEnv?: string },
): string | undefined {
  const file = locate(program, options.cwd, options.pathEnv);
  if (!file) return undefined;
  try {
    if (!lstatSync(file).isSymbolicLink()) return undefined;
    const target = basename(realpathSync(file));
    return target !== program.name ? target : undefined;
  } catch {
    return undefined;
  }
}

/** The file bash would run for `program`, or undefined. */
function locate(program: ProgramReference, cwd: string, pathEnv: string | undefined): string | undefined {
  if (program.invokedAs.includes('/')) return resolve(program.dir ?? cwd, program.invokedAs);
  for (const dir of (pathEnv ?? '').split(delimiter)) {
    // an empty PATH entry is the current directory
    const candidate = resolve(program.dir ?? cwd, dir || '.', program.invokedAs);
    if (isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

function isExecutableFile(path: string): boolean {
  try {
    lstatSync(path);
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The banned programs installed on this `PATH`, by their real paths (looked up once per PATH value). */
function bannedPrograms(pathEnv: string | undefined): { path: string; entry: BannedCommand }[] {
  const key = pathEnv ?? '';
  let found = bannedOnPath.get(key);
  if (found) return found;
  found = [];
  const seen = new Set<string>();
  for (const entry of BANNED_COMMANDS) {
    for (const dir of key.split(delimiter)) {
      if (!dir.startsWith('/')) continue; // relative entries change with the directory: not a fixed install
      const candidate = join(dir, entry.name);
      if (!isExecutableFile(candidate)) continue;
      try {
        const real = realpathSync(candidate);
        if (!seen.has(real)) found.push({ path: real, entry });
        seen.add(real);
      } catch {
        // gone meanwhile
      }
      break;
    }
  }
  bannedOnPath.set(key, found);
  return found;
}

function sizeOf(path: string): number | undefined {
  try {
    return statSync(path).size;
  } catch {
    return undefined;
  }
}

/** The size and SHA-256 of a file, cached by path, size and modification and change times. */
function fingerprint(path: string, known?: Stats): Fingerprint | undefined {
  try {
    const stats = known ?? statSync(path);
    const cached = hashes.get(path);
    if (cached && cached.size === stats.size && cached.mtimeMs === stats.mtimeMs && cached.ctimeMs === stats.ctimeMs)
      return cached;
    if (stats.size > MAX_HASHED_BYTES) return undefined;
    const sha256 = createHash('sha256').update(readFileSync(path)).digest('hex');
    const result = { size: stats.size, mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs, sha256 };
    hashes.set(path, result);
    return result;
  } catch {
    return undefined;
  }
}
