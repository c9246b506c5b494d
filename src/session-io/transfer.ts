/**
 * Export and import of a session tree between a project's database and the JSON format of
 * json-format.ts.
 */
import { randomUUID } from 'node:crypto';
import type { Database } from '../db/database.js';
import { restoreSessionRows } from '../db/session-restore.js';
import type { Session } from '../db/session-store.js';
import type { Message, MessagePart } from '../message.js';
import { EXPORT_FORMAT, EXPORT_VERSION, type ExportedSession, type SessionExport } from './json-format.js';

/** The session `id` with its sub-agent sessions (any depth), parents first. @throws Error when `id` does not exist */
export function sessionTree(db: Database, id: string): Session[] {
  const root = db.sessions.get(id);
  if (!root) throw new Error(`no session ${id}`);
  const out: Session[] = [];
  const visit = (session: Session, depth: number) => {
    out.push(session);
    // sub-agents cannot start sub-agents today; the bound guards against a cycle in a damaged file
    if (depth < 16) for (const child of db.sessions.listChildren(session.id)) visit(child, depth + 1);
  };
  visit(root, 0);
  return out;
}

/** The export of session `id` (see json-format.ts). @throws Error when `id` does not exist */
export function exportSession(db: Database, id: string): SessionExport {
  const tree = sessionTree(db, id);
  const sessions = tree.map((s): ExportedSession => {
    const { messageCount: _count, tuiUsedAt: _used, ...rest } = s;
    return rest;
  });
  return {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    sessions,
    messages: tree.flatMap((s) => db.messages.list(s.id)),
    files: tree.flatMap((s) => db.files.listBySession(s.id)),
  };
}

/** What {@link importSession} did. */
export interface ImportResult {
  /** the imported (top) session as stored */
  session: Session;
  /** the id the file gave it */
  originalId: string;
  /** true when an id of the file was taken here, so every id got a new one */
  renamed: boolean;
}

/**
 * Writes `data` into `db` in one transaction. An existing session is never overwritten: when any id of
 * the file (session, message or file version) is already taken here — the same session imported twice,
 * or exported from this project — every session, message and file version gets a new id, and the
 * references among them (parents, the summary message, an `agent` call's sub-session) follow.
 * @throws `SqliteError` when the write fails (nothing is written then)
 */
export function importSession(db: Database, data: SessionExport): ImportResult {
  const originalId = data.sessions[0]!.id;
  const taken = (table: 'sessions' | 'messages' | 'files', ids: string[]) => {
    const stmt = db.connection.prepare<[string], { n: number }>(`SELECT count(*) AS n FROM ${table} WHERE id = ?`);
    return ids.some((id) => stmt.get(id)!.n > 0);
  };
  const renamed =
    taken(
      'sessions',
      data.sessions.map((s) => s.id),
    ) ||
    taken(
      'messages',
      data.messages.map((m) => m.id),
    ) ||
    taken(
      'files',
      data.files.map((f) => f.id),
    );
  const rows = renamed ? withNewIds(data) : data;
  restoreSessionRows(db, rows);
  return { session: db.sessions.get(rows.sessions[0]!.id)!, originalId, renamed };
}

/** `data` with fresh ids throughout, references rewritten. */
function withNewIds(data: SessionExport): SessionExport {
  const sessionIds = new Map(data.sessions.map((s) => [s.id, randomUUID()]));
  const messageIds = new Map(data.messages.map((m) => [m.id, randomUUID()]));
  const sessionOf = (id: string) => sessionIds.get(id) ?? id;
  const sessions = data.sessions.map((s) => {
    const copy: ExportedSession = { ...s, id: sessionOf(s.id) };
    if (s.parentSessionId !== undefined) copy.parentSessionId = sessionOf(s.parentSessionId);
    if (s.summaryMessageId !== undefined)
      copy.summaryMessageId = messageIds.get(s.summaryMessageId) ?? s.summaryMessageId;
    return copy;
  });
  const messages = data.messages.map((m): Message => ({
    ...m,
    id: messageIds.get(m.id)!,
    sessionId: sessionOf(m.sessionId),
    parts: m.parts.map((p) => withSubSessionId(p, sessionIds)),
  }));
  const files = data.files.map((f) => ({ ...f, id: randomUUID(), sessionId: sessionOf(f.sessionId) }));
  return { ...data, sessions, messages, files };
}

/** An `agent` tool result names its sub-session in `metadata.sessionId` (the TUI nests it): follow the new id. */
function withSubSessionId(part: MessagePart, sessionIds: Map<string, string>): MessagePart {
  if (part.type !== 'tool_result' || typeof part.metadata?.sessionId !== 'string') return part;
  const next = sessionIds.get(part.metadata.sessionId);
  return next ? { ...part, metadata: { ...part.metadata, sessionId: next } } : part;
}
