/**
 * `opencode sessions undo ID [--redo] [--force] [--json]`: undo (or redo) the file changes
 * of a session's last turn from a script, as `/undo` does in the TUI (`src/undo/undo.ts`). Only
 * argument parsing is loaded with the command table; the work is imported when it runs.
 *
 * Exit codes: 0 every file of the turn was put back; 1 nothing to undo or redo, a file was left alone
 * because it changed since (its diff is printed), a write failed, or another process (a `-p` run, a
 * TUI, an editor) has the session open; 2 bad usage, config, or an
 * unknown or ambiguous session id.
 */
import type { Command } from 'commander';

/** What the command takes. */
export interface SessionsUndoOptions {
  /** the project directory (global `--cwd`) */
  cwd?: string;
  /** session id or a unique prefix of it */
  id: string;
  redo?: boolean;
  force?: boolean;
  json?: boolean;
}

/**
 * Adds `undo` to the `opencode sessions` command (`sessions` is that commander command). Returns the
 * new sub-command.
 */
export function registerUndoCommand(sessions: Command): Command {
  return sessions
    .command('undo')
    .description("undo the file changes of the session's last turn (edit, write, patch, bash); again to walk back")
    .argument('<id>', 'session id or a unique prefix of it')
    .option('--redo', 'put back the turn undone most recently instead')
    .option('--force', 'also overwrite files that changed since (their difference is still printed)')
    .option('--json', 'print JSON')
    .action(async (id: string, _opts: unknown, command: Command) => {
      process.exitCode = await runSessionsUndo({ ...command.optsWithGlobals<Omit<SessionsUndoOptions, 'id'>>(), id });
    });
}

/** Runs the command; resolves with the exit code. Never throws. */
export async function runSessionsUndo(opts: SessionsUndoOptions): Promise<number> {
  const { existsSync } = await import('node:fs');
  const { join, resolve } = await import('node:path');
  const cwd = resolve(opts.cwd ?? process.cwd());
  const { loadConfigForCommand } = await import('./load-config.js');
  const loaded = loadConfigForCommand(cwd);
  if (typeof loaded === 'number') return loaded;
  const { resolveDataDir } = await import('../config/load.js');
  const { DATABASE_FILE_NAME, openDatabase } = await import('../db/index.js');
  const { findSession, SessionLookupError } = await import('./session-ref.js');
  const { NothingToUndoError, redoTurn, undoTurn } = await import('../undo/undo.js');
  const dataDir = resolveDataDir(loaded.config, cwd);
  // reading must not create a database: without one there is no session
  if (!existsSync(join(dataDir, DATABASE_FILE_NAME)))
    return fail(2, `no session ${opts.id.trim()}; \`opencode sessions list\` shows them`);
  let db: ReturnType<typeof openDatabase>;
  try {
    db = openDatabase(dataDir);
  } catch (err) {
    // a newer opencode's schema, a file that is not a database, a full disk: the line -p gives
    return fail(1, `cannot open the session database: ${(err as Error).message}`);
  }
  try {
    const session = findSession(db, opts.id);
    // files written under a running reply: its bash call would take them for its own changes
    const { describeSessionUsers, sessionUsersOf } = await import('./sessions-in-use.js');
    const users = sessionUsersOf(db, session.id);
    if (users.length)
      return fail(
        1,
        `session ${session.id} is in use by ${describeSessionUsers(users)}: undo it once that ends (or with /undo in that TUI)`,
      );
    const act = opts.redo ? redoTurn : undoTurn;
    const result = act(db, session.id, { cwd, force: opts.force });
    const { formatUndoResult, undoResultJson } = await import('../undo/report.js');
    process.stdout.write(
      opts.json ? `${JSON.stringify(undoResultJson(result, cwd), null, 2)}\n` : formatUndoResult(result, cwd),
    );
    return result.conflicts.length && !opts.force ? 1 : 0;
  } catch (err) {
    if (err instanceof SessionLookupError) return fail(2, err.message);
    if (err instanceof NothingToUndoError) return fail(1, err.message);
    return fail(1, (err as Error).message);
  } finally {
    try {
      db.close();
    } catch {
      // the answer is decided
    }
  }
}

function fail(code: number, line: string): number {
  process.stderr.write(`opencode: ${line}\n`);
  return code;
}
