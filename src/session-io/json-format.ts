/**
 * The JSON export of a session (`opencode sessions export ID --format json`): the session,
 * its sub-agent sessions, every message with all its parts, and the file history, exactly as stored,
 * so `opencode sessions import FILE` writes the same rows back (in this or another project).
 *
 * Shape (version 1):
 * ```json
 * { "format": "opencode-session", "version": 1,
 *   "sessions": [ {root session}, {sub-agent sessions…} ],
 *   "messages": [ {Message}… ], "files": [ {FileVersion}… ] }
 * ```
 * `sessions[0]` is the exported session; the others are its sub-agent sessions (descendants), parents
 * before children. Objects use the names of `Session`, `Message` and `FileVersion` (src/db, src/message.ts);
 * times are unix ms. Not exported: `messageCount` (recounted on import) and `tuiUsedAt` (about this
 * machine's TUI, not the conversation).
 */
import { z } from 'zod';
import type { FileVersion } from '../db/file-store.js';
import type { Session } from '../db/session-store.js';
import type { Message } from '../message.js';

/** The `format` field: tells an export of ours from any other JSON. */
export const EXPORT_FORMAT = 'opencode-session';
/** The version this build writes and reads. */
export const EXPORT_VERSION = 1;

/** A session as exported. */
export type ExportedSession = Omit<Session, 'messageCount' | 'tuiUsedAt'>;

/** The whole export. */
export interface SessionExport {
  format: typeof EXPORT_FORMAT;
  version: typeof EXPORT_VERSION;
  sessions: ExportedSession[];
  messages: Message[];
  files: FileVersion[];
}

const count = z.number().int().nonnegative();
const time = z.number().int().nonnegative();

const sessionSchema = z.strictObject({
  id: z.string().min(1),
  parentSessionId: z.string().min(1).optional(),
  title: z.string(),
  promptTokens: count,
  completionTokens: count,
  cacheReadTokens: count,
  cacheWriteTokens: count,
  contextTokens: count,
  costUsd: z.number().nonnegative(),
  summaryMessageId: z.string().min(1).optional(),
  createdAt: time,
  updatedAt: time,
});

const finishReason = z.enum([
  'end_turn',
  'max_tokens',
  'tool_use',
  'canceled',
  'error',
  'permission_denied',
  'step_limit',
  'refusal',
  'pause_turn',
  'unknown',
]);

/** The part types version 1 holds (src/message.ts). */
const PART_TYPES = ['reasoning', 'text', 'image', 'tool_call', 'tool_result', 'finish', 'server_tool'] as const;

const partSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('reasoning'),
    thinking: z.string(),
    signature: z.string().optional(),
    redactedData: z.string().optional(),
  }),
  z.strictObject({ type: z.literal('server_tool'), block: z.record(z.string(), z.unknown()) }),
  z.strictObject({ type: z.literal('text'), text: z.string(), note: z.enum(['undo', 'redo']).optional() }),
  z.strictObject({ type: z.literal('image'), mimeType: z.string(), data: z.string(), name: z.string().optional() }),
  z.strictObject({
    type: z.literal('tool_call'),
    id: z.string().min(1),
    name: z.string().min(1),
    input: z.string(),
    finished: z.boolean(),
  }),
  z.strictObject({
    type: z.literal('tool_result'),
    toolCallId: z.string().min(1),
    name: z.string(),
    content: z.string(),
    metadata: z.record(z.string(), z.unknown()).optional(),
    isError: z.boolean(),
    images: z.array(z.strictObject({ mimeType: z.string(), data: z.string() })).optional(),
  }),
  z.strictObject({ type: z.literal('finish'), reason: finishReason, time, message: z.string().optional() }),
]);

const messageSchema = z.strictObject({
  id: z.string().min(1),
  sessionId: z.string().min(1),
  role: z.enum(['user', 'assistant', 'tool', 'system']),
  parts: z.array(partSchema),
  model: z.string().optional(),
  seq: z.number().int().positive(),
  createdAt: time,
  updatedAt: time,
  finishedAt: time.optional(),
});

const fileSchema = z.strictObject({
  id: z.string().min(1),
  sessionId: z.string().min(1),
  path: z.string().min(1),
  content: z.string(),
  version: z.string().regex(/^(initial|v\d+)$/),
  createdAt: time,
  updatedAt: time,
});

const exportSchema = z.strictObject({
  format: z.literal(EXPORT_FORMAT),
  version: z.literal(EXPORT_VERSION),
  sessions: z.array(sessionSchema).min(1),
  messages: z.array(messageSchema),
  files: z.array(fileSchema),
});

/**
 * Deepest nesting of arrays and objects an export may have. Ours nest about six levels (a tool
 * result's metadata a few more); a file nested thousands deep would overflow the stack of
 * `JSON.stringify` when stored and again when exported.
 */
export const MAX_NESTING_DEPTH = 64;

/** An export file that cannot be imported; the message says what is wrong and where. */
export class SessionImportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SessionImportError';
  }
}

/**
 * Checks `value` (parsed JSON) against version 1 and its own references: every sub-session's parent,
 * message's session, file's session and summary message is in the file; message `seq`s are unique per
 * session. Returns it typed.
 * @throws {SessionImportError} naming the first problem, e.g. `messages.3.parts.0.type: …`
 */
export function parseSessionExport(value: unknown): SessionExport {
  const format = (value as { format?: unknown } | null)?.format;
  if (format !== EXPORT_FORMAT) {
    throw new SessionImportError(
      `not an opencode session export (its "format" is ${JSON.stringify(format ?? null)}, expected "${EXPORT_FORMAT}"); make one with: opencode sessions export ID --format json`,
    );
  }
  const version = (value as { version?: unknown }).version;
  if (version !== EXPORT_VERSION) {
    throw new SessionImportError(
      `export version ${JSON.stringify(version)} is not one this opencode reads (${EXPORT_VERSION}); export it again with this version, or upgrade opencode`,
    );
  }
  const deep = tooDeep(value);
  if (deep !== undefined) {
    throw new SessionImportError(
      `${deep}: nested more than ${MAX_NESTING_DEPTH} levels deep (arrays and objects); this is not what opencode exports, so the file was made or changed by something else`,
    );
  }
  const parsed = exportSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.join('.') || '(top level)';
    const [list, m, parts, p, field] = issue.path;
    if (list === 'messages' && parts === 'parts' && field === 'type' && issue.path.length === 5) {
      const type = shapeOf(value).messages[m as number]!.parts[p as number]!.type;
      throw new SessionImportError(
        `${where}: a part of type ${JSON.stringify(type)} is not one this opencode knows (${PART_TYPES.join(', ')}); ` +
          'it may come from a newer opencode: upgrade, or remove that part from the file',
      );
    }
    throw new SessionImportError(`${where}: ${issue.message}`);
  }
  // the checked value itself, not zod's copy: that one has its keys in schema order, and an export
  // imported and exported again must read the same
  const data = value as SessionExport;
  const ids = new Set<string>();
  for (const [i, s] of data.sessions.entries()) {
    if (ids.has(s.id)) throw new SessionImportError(`sessions.${i}.id: ${s.id} appears twice`);
    if (i === 0 && s.parentSessionId !== undefined) {
      // the exported session may itself be a sub-agent session; imported, it stands alone
      delete s.parentSessionId;
    }
    if (i > 0 && (s.parentSessionId === undefined || !ids.has(s.parentSessionId))) {
      throw new SessionImportError(
        `sessions.${i}.parentSessionId: a sub-agent session's parent must come before it in "sessions"`,
      );
    }
    ids.add(s.id);
  }
  const messageIds = new Set<string>();
  const seqs = new Set<string>();
  for (const [i, m] of data.messages.entries()) {
    if (!ids.has(m.sessionId))
      throw new SessionImportError(`messages.${i}.sessionId: no session ${m.sessionId} in the file`);
    if (messageIds.has(m.id)) throw new SessionImportError(`messages.${i}.id: ${m.id} appears twice`);
    const seq = `${m.sessionId}\u0000${m.seq}`;
    if (seqs.has(seq))
      throw new SessionImportError(`messages.${i}.seq: ${m.seq} appears twice in session ${m.sessionId}`);
    messageIds.add(m.id);
    seqs.add(seq);
  }
  for (const [i, s] of data.sessions.entries()) {
    if (s.summaryMessageId !== undefined && !messageIds.has(s.summaryMessageId)) {
      throw new SessionImportError(`sessions.${i}.summaryMessageId: no message ${s.summaryMessageId} in the file`);
    }
  }
  for (const [i, f] of data.files.entries()) {
    if (!ids.has(f.sessionId))
      throw new SessionImportError(`files.${i}.sessionId: no session ${f.sessionId} in the file`);
  }
  return data;
}

/** The path of the first value nested past {@link MAX_NESTING_DEPTH}, or undefined. Iterative: the input may be deeper than the stack. */
function tooDeep(root: unknown): string | undefined {
  const stack: { value: unknown; path: string[] }[] = [{ value: root, path: [] }];
  while (stack.length) {
    const { value, path } = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (path.length >= MAX_NESTING_DEPTH) return path.slice(0, 6).join('.') + (path.length > 6 ? '.…' : '');
    for (const [key, child] of Object.entries(value)) stack.push({ value: child, path: [...path, key] });
  }
  return undefined;
}

/** `value` read as far as its shape was checked (used only to name what zod rejected). */
function shapeOf(value: unknown): { messages: { parts: { type?: unknown }[] }[] } {
  return value as { messages: { parts: { type?: unknown }[] }[] };
}
