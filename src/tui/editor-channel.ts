/**
 * The channel the VS Code extension uses to reach the TUI it started: a Unix socket whose path the
 * extension passes in `OPENCODE_VSCODE_SOCKET`, inside a directory only this user can open (mode
 * 0700), and a random token in `OPENCODE_VSCODE_TOKEN` that every message must carry. Without both
 * variables nothing is opened. Once read, the variables are removed from the environment, so the
 * commands opencode runs do not inherit them.
 *
 * The protocol is JSON lines; each request gets one JSON line back:
 * - `{"token":"…","type":"append","text":"@src/a.ts#L10-24"}` → the text goes at the end of the
 *   prompt (never sent: the person presses enter) → `{"ok":true}`
 * - `{"token":"…","type":"focus"}` → the chat page with the prompt is shown → `{"ok":true}`
 * Anything else (a wrong token, another type, a line over {@link MAX_LINE_BYTES}, bad JSON) gets
 * `{"ok":false,"error":"…"}` and the connection is closed.
 */
import { timingSafeEqual } from 'node:crypto';
import { lstatSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { dirname } from 'node:path';

/** The environment variable holding the socket path. */
export const SOCKET_VAR = 'OPENCODE_VSCODE_SOCKET';
/** The environment variable holding the token. */
export const TOKEN_VAR = 'OPENCODE_VSCODE_TOKEN';
/** The longest request line accepted, in bytes (a path with a line range needs far less). */
export const MAX_LINE_BYTES = 16 * 1024;
/** The shortest token accepted, in characters: the extension sends 64 hex digits. */
const MIN_TOKEN_CHARS = 32;

/** What the TUI does for a request. */
export interface EditorChannelHandlers {
  /** appends `text` to the prompt, never submitting it */
  append(text: string): void;
  /** brings the prompt into view */
  focus(): void;
}

/** An open channel. */
export interface EditorChannel {
  /** the socket path listened on */
  path: string;
  /** stops listening, ends the connections and removes the socket file */
  close(): Promise<void>;
}

/** Thrown when the variables are set but the channel cannot be opened safely. */
export class EditorChannelError extends Error {
  override name = 'EditorChannelError';
}

type Reply = { ok: true } | { ok: false; error: string };

/**
 * Decides one request line: pure, so its table of refusals is tested on its own.
 * @returns the reply and, when accepted, the action to run
 */
export function decideRequest(
  line: string,
  token: string,
): { reply: Reply; action?: { type: 'append'; text: string } | { type: 'focus' } } {
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    return { reply: { ok: false, error: 'not JSON: send one JSON object per line' } };
  }
  if (typeof message !== 'object' || message === null || Array.isArray(message)) {
    return { reply: { ok: false, error: 'not a JSON object' } };
  }
  const m = message as Record<string, unknown>;
  if (typeof m.token !== 'string' || !sameToken(m.token, token)) return { reply: { ok: false, error: 'wrong token' } };
  if (m.type === 'focus') return { reply: { ok: true }, action: { type: 'focus' } };
  if (m.type === 'append') {
    if (typeof m.text !== 'string' || m.text === '')
      return { reply: { ok: false, error: 'append needs a non-empty "text"' } };
    // the prompt takes text, not keys: control characters (escape sequences, a carriage return
    // that could look like enter) are refused rather than interpreted
    if (/[\u0000-\u0008\u000b-\u001f\u007f]/.test(m.text))
      return { reply: { ok: false, error: 'text holds control characters' } };
    return { reply: { ok: true }, action: { type: 'append', text: m.text } };
  }
  return {
    reply: { ok: false, error: `unknown type ${JSON.stringify(m.type)}: only "append" and "focus" are accepted` },
  };
}

/** Compares in constant time, so the reply's timing says nothing about how much of a guess was right. */
function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Checks that the socket's directory is a real directory of this user that nobody else can open,
 * so no other user can connect or put their own socket in its place.
 * @throws EditorChannelError saying what is wrong with it
 */
function checkDirectory(dir: string): void {
  let st;
  try {
    st = lstatSync(dir);
  } catch {
    throw new EditorChannelError(`${SOCKET_VAR}: the folder ${dir} does not exist`);
  }
  if (!st.isDirectory()) throw new EditorChannelError(`${SOCKET_VAR}: ${dir} is not a folder`);
  if (typeof process.getuid === 'function' && st.uid !== process.getuid()) {
    throw new EditorChannelError(`${SOCKET_VAR}: the folder ${dir} belongs to another user`);
  }
  if ((st.mode & 0o077) !== 0) {
    throw new EditorChannelError(
      `${SOCKET_VAR}: the folder ${dir} can be opened by other users (mode ${(st.mode & 0o777).toString(8)}; it must be 700)`,
    );
  }
}

/**
 * Opens the channel when `env` has both variables; resolves to undefined when it has neither.
 * @throws EditorChannelError when only one is set, the token is too short, the folder is not private,
 *   or the socket cannot be listened on
 */
export async function openEditorChannel(
  env: NodeJS.ProcessEnv,
  handlers: EditorChannelHandlers,
): Promise<EditorChannel | undefined> {
  const path = env[SOCKET_VAR];
  const token = env[TOKEN_VAR];
  if (!path && !token) return undefined;
  if (!path || !token) throw new EditorChannelError(`${SOCKET_VAR} and ${TOKEN_VAR} go together: set both or neither`);
  if (token.length < MIN_TOKEN_CHARS)
    throw new EditorChannelError(`${TOKEN_VAR} is too short (${token.length} characters; at least ${MIN_TOKEN_CHARS})`);
  // the variables are this process's alone: the commands it runs (an opencode among them) must
  // not find the token, nor listen in its place
  delete env[SOCKET_VAR];
  delete env[TOKEN_VAR];
  checkDirectory(dirname(path));
  // the extension makes a fresh folder for each opencode: a file there already is another
  // listener's, never ours to replace
  if (lstatExists(path)) throw new EditorChannelError(`${SOCKET_VAR}: ${path} is in use already`);

  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    serve(socket, token, handlers);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err) => reject(new EditorChannelError(`cannot listen on ${path}: ${err.message}`)));
    server.listen(path, () => resolve());
  });
  return {
    path,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => {
          rmSync(path, { force: true });
          resolve();
        });
      }),
  };
}

function lstatExists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Reads request lines from one connection; the first refusal ends it. */
function serve(socket: Socket, token: string, handlers: EditorChannelHandlers): void {
  let pending = Buffer.alloc(0);
  const refuse = (error: string) => {
    socket.end(JSON.stringify({ ok: false, error } satisfies Reply) + '\n');
    socket.removeAllListeners('data');
  };
  socket.on('data', (chunk: Buffer) => {
    pending = Buffer.concat([pending, chunk]);
    for (;;) {
      const newline = pending.indexOf(0x0a);
      if (newline === -1) {
        if (pending.length > MAX_LINE_BYTES) refuse(`request too long: at most ${MAX_LINE_BYTES} bytes a line`);
        return;
      }
      if (newline > MAX_LINE_BYTES) return refuse(`request too long: at most ${MAX_LINE_BYTES} bytes a line`);
      const line = pending.subarray(0, newline).toString('utf8');
      pending = pending.subarray(newline + 1);
      const { reply, action } = decideRequest(line, token);
      if (!reply.ok) return refuse(reply.error);
      try {
        if (action?.type === 'append') handlers.append(action.text);
        else if (action?.type === 'focus') handlers.focus();
      } catch (err) {
        return refuse(err instanceof Error ? err.message : String(err));
      }
      socket.write(JSON.stringify(reply) + '\n');
    }
  });
}

/** Joins appended text to what the prompt holds: a space between, unless one is there already. */
export function appendToPrompt(current: string, text: string): string {
  if (current === '' || /\s$/.test(current)) return current + text;
  return `${current} ${text}`;
}
