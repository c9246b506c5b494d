/**
 * `opencode sessions list|show|export|import|delete`: the project's sessions from the
 * shell. Output is made for pipes: colour only when stdout is a terminal, one record per line in
 * `list`, JSON with `--json` or `--format json`.
 *
 * Exit codes: 0 done; 1 a failed read or write (the database, the output), or a delete refused because
 * a running process has the session open; 2 bad usage: an unknown or ambiguous session id, an
 * unreadable or invalid import file, a config error.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import chalk from 'chalk';
import type { Database } from '../db/database.js';
import type { Session } from '../db/session-store.js';
import { costText, localTime, roundUsd, totalTokens } from '../session-io/conversation.js';
import { alignColumns } from './columns.js';
import { loadConfigForCommand } from './load-config.js';
import { findSession, SessionLookupError, shortIds } from './session-ref.js';

/** Options every sub-command gets (the global `-c`). */
export interface SessionsOptions {
  cwd?: string;
}

/** Longest title `list` prints, in characters. */
const LIST_TITLE_MAX_CHARS = 60;

/** `opencode sessions list [--json]`. */
export async function runSessionsList(opts: SessionsOptions & { json?: boolean }): Promise<number> {
  return withDatabase(opts, { create: false }, async (db) => {
    const sessions = db ? ordered(db.sessions.listAll()) : [];
    if (opts.json)
      return write(
        `${JSON.stringify(
          sessions.map(({ session }) => sessionJson(session)),
          null,
          2,
        )}\n`,
      );
    if (sessions.length === 0) return write('No sessions in this project yet.\n');
    const short = shortIds(sessions.map(({ session }) => session.id));
    const header = ['ID', 'TITLE', 'UPDATED', 'MESSAGES', 'COST'];
    const rows = sessions.map(({ session, depth }) => [
      short.get(session.id)!,
      `${depth ? `${'  '.repeat(depth - 1)}↳ ` : ''}${cutTitle(session.title)}`,
      localTime(session.updatedAt),
      String(session.messageCount),
      costText(session.costUsd),
    ]);
    const table = alignColumns([header, ...rows], new Set([0, 1, 2]));
    const bold = chalk.level > 0 && process.stdout.isTTY === true ? chalk.bold : (text: string) => text;
    return write(`${[bold(table[0]!), ...table.slice(1)].join('\n')}\n`);
  });
}

/** `opencode sessions show ID`: the conversation as text. */
export async function runSessionsShow(opts: SessionsOptions & { id: string }): Promise<number> {
  return withDatabase(opts, { create: false }, async (db) => {
    const session = lookup(db, opts.id);
    const { formatSessionText } = await import('../session-io/text.js');
    return write(
      formatSessionText(session, db!.messages.list(session.id), {
        color: chalk.level > 0 && process.stdout.isTTY === true,
      }),
    );
  });
}

/** `opencode sessions export ID [--format md|json]`: markdown (default) or the JSON `import` reads. */
export async function runSessionsExport(
  opts: SessionsOptions & { id: string; format?: 'md' | 'json' },
): Promise<number> {
  return withDatabase(opts, { create: false }, async (db) => {
    const session = lookup(db, opts.id);
    if (opts.format === 'json') {
      const { exportSession } = await import('../session-io/transfer.js');
      return write(`${JSON.stringify(exportSession(db!, session.id), null, 2)}\n`);
    }
    const { formatSessionMarkdown } = await import('../session-io/markdown.js');
    const children = new Map(
      db!.sessions
        .listAll()
        .filter((s) => s.parentSessionId !== undefined)
        .map((s) => [s.id, s] as const),
    );
    return write(
      formatSessionMarkdown({
        session,
        messages: db!.messages.list(session.id),
        children: (id) => {
          const child = children.get(id);
          return child && { session: child, messages: db!.messages.list(id) };
        },
      }),
    );
  });
}

/** `opencode sessions import FILE` (`-` reads stdin): a JSON export, under a new id when its own is taken. */
export async function runSessionsImport(opts: SessionsOptions & { file: string }): Promise<number> {
  let text: string;
  try {
    text = opts.file === '-' ? await readStdin() : readFileSync(resolve(opts.file), 'utf8');
  } catch (err) {
    return fail(
      2,
      `cannot read ${opts.file}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return fail(
      2,
      `${opts.file} is not JSON (${(err as Error).message}); import reads what \`opencode sessions export ID --format json\` writes`,
    );
  }
  const { parseSessionExport, SessionImportError } = await import('../session-io/json-format.js');
  let data;
  try {
    data = parseSessionExport(value);
  } catch (err) {
    if (err instanceof SessionImportError) return fail(2, `cannot import ${opts.file}: ${err.message}`);
    throw err;
  }
  const { importSession } = await import('../session-io/transfer.js');
  return withDatabase(opts, { create: true }, async (db) => {
    const result = importSession(db!, data);
    const { session } = result;
    const note = result.renamed
      ? ` (a session with its id ${result.originalId} or one of its messages is already here, so it got a new id)`
      : '';
    return write(`imported session ${session.id} "${session.title}", ${session.messageCount} messages${note}\n`);
  });
}

/**
 * `opencode sessions delete ID [--force]`: the session with its messages, file history and sub-agent
 * sessions. Refused (exit 1) while a running TUI or `-p` has it open (`db/session-in-use.ts`), naming
 * the process: deleting it under that process made its next write fail. `--force` deletes anyway.
 */
export async function runSessionsDelete(opts: SessionsOptions & { id: string; force?: boolean }): Promise<number> {
  return withDatabase(opts, { create: false }, async (db) => {
    const session = lookup(db, opts.id);
    if (!opts.force) {
      const { describeSessionUsers, sessionUsersOf } = await import('./sessions-in-use.js');
      const users = sessionUsersOf(db!, session.id);
      if (users.length) {
        return fail(
          1,
          `session ${session.id} "${session.title}" is in use by ${describeSessionUsers(users)}: quit it or open another session there first, ` +
            `or pass --force to delete it anyway (that process's next write to the session then fails)`,
        );
      }
    }
    const children = db!.sessions.listChildren(session.id).length;
    db!.sessions.delete(session.id);
    const sub = children ? ` and ${children} sub-agent session${children === 1 ? '' : 's'}` : '';
    return write(`deleted session ${session.id} "${session.title}" (${session.messageCount} messages${sub})\n`);
  });
}

/** A session as `list --json` prints it: times in UTC (ISO 8601), cost in US dollars. */
function sessionJson(s: Session): Record<string, unknown> {
  return {
    id: s.id,
    parentSessionId: s.parentSessionId ?? null,
    title: s.title,
    createdAt: new Date(s.createdAt).toISOString(),
    updatedAt: new Date(s.updatedAt).toISOString(),
    lastUsedInTuiAt: s.tuiUsedAt === undefined ? null : new Date(s.tuiUsedAt).toISOString(),
    messages: s.messageCount,
    tokens: {
      input: s.promptTokens,
      output: s.completionTokens,
      cacheRead: s.cacheReadTokens,
      cacheWrite: s.cacheWriteTokens,
      total: totalTokens(s),
    },
    costUsd: roundUsd(s.costUsd),
  };
}

/** Top-level sessions most recently updated first, each followed by its sub-agent sessions (oldest first). */
function ordered(all: Session[]): { session: Session; depth: number }[] {
  const byParent = new Map<string, Session[]>();
  for (const s of all) {
    if (s.parentSessionId === undefined) continue;
    const list = byParent.get(s.parentSessionId) ?? [];
    list.push(s);
    byParent.set(s.parentSessionId, list);
  }
  const out: { session: Session; depth: number }[] = [];
  const visit = (s: Session, depth: number) => {
    out.push({ session: s, depth });
    const children = (byParent.get(s.id) ?? []).sort((a, b) => a.createdAt - b.createdAt);
    if (depth < 16) for (const child of children) visit(child, depth + 1);
  };
  for (const s of all) if (s.parentSessionId === undefined) visit(s, 0);
  return out;
}

function cutTitle(title: string): string {
  const line = title.replace(/\s+/g, ' ').trim() || '(untitled)';
  return line.length > LIST_TITLE_MAX_CHARS ? `${line.slice(0, LIST_TITLE_MAX_CHARS - 1)}…` : line;
}

/** The session `ref` names. @throws {SessionLookupError} (also when the project has no database yet) */
function lookup(db: Database | undefined, ref: string): Session {
  if (!db) throw new SessionLookupError(`no session ${ref.trim()}; \`opencode sessions list\` shows them`);
  return findSession(db, ref);
}

/**
 * Loads the config, opens the project's database (or passes `undefined` when there is none and
 * `create` is false: reading must not create one), runs `work` and closes. Turns a
 * {@link SessionLookupError} into exit 2 and any other error into one line and exit 1.
 */
async function withDatabase(
  opts: SessionsOptions,
  options: { create: boolean },
  work: (db: Database | undefined) => Promise<number>,
): Promise<number> {
  const cwd = resolve(opts.cwd ?? process.cwd());
  const loaded = loadConfigForCommand(cwd);
  if (typeof loaded === 'number') return loaded;
  const { resolveDataDir } = await import('../config/load.js');
  const { DATABASE_FILE_NAME, openDatabase } = await import('../db/index.js');
  const dataDir = resolveDataDir(loaded.config, cwd);
  let db: Database | undefined;
  try {
    if (options.create || existsSync(join(dataDir, DATABASE_FILE_NAME))) {
      try {
        db = openDatabase(dataDir);
      } catch (err) {
        // a newer opencode's schema, a file that is not a database, a full disk: the line -p gives
        return fail(1, `cannot open the session database: ${(err as Error).message}`);
      }
    }
    return await work(db);
  } catch (err) {
    if (err instanceof SessionLookupError) return fail(2, err.message);
    return fail(1, (err as Error).message);
  } finally {
    try {
      db?.close();
    } catch {
      // the answer is decided; a failing close must not change it
    }
  }
}

function fail(code: number, line: string): number {
  process.stderr.write(`opencode: ${line}\n`);
  return code;
}

/**
 * Writes to stdout; resolves with the exit code. A reader that went away (`| head`) is not a failure
 * (0); any other write error (a full disk) is one line on stderr and 1.
 */
function write(text: string): Promise<number> {
  return new Promise((resolve) => {
    process.stdout.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') return resolve(0);
      process.stderr.write(`opencode: cannot write the output: ${err.message}\n`);
      resolve(1);
    });
    process.stdout.write(text, (err) => {
      if (!err) resolve(0);
    });
  });
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
