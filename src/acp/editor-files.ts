/**
 * The editor's buffers as the file tools' {@link FileAccess}: in `opencode acp`, when the
 * editor offers ACP's `fs/read_text_file`, `view`, `edit`, `write` and `patch` read a file's text
 * through it (an open buffer's unsaved changes included), and when it offers `fs/write_text_file` they
 * hand it the new text, so the change lands in the buffer the person sees and the editor's undo works.
 * What the tools do with that text (checks, permission, history) is `tools/write-guard.ts`'s business.
 */
import { methods, type AgentContext } from '@agentclientprotocol/sdk';
import { EditorTimeoutError, type FileAccess } from '../tools/file-access.js';

/**
 * How long an editor may take to answer one `fs/read_text_file` or `fs/write_text_file` (ms), unless
 * `OPENCODE_ACP_FS_TIMEOUT_MS` says otherwise: an editor answers these from memory, so a minute of
 * silence means it is stuck, and the turn must not hang on it.
 */
export const EDITOR_FS_TIMEOUT_MS = 60_000;

/** The timeout of `OPENCODE_ACP_FS_TIMEOUT_MS` (a positive number of ms), else {@link EDITOR_FS_TIMEOUT_MS}. */
export function editorFsTimeoutMs(env: NodeJS.ProcessEnv): number {
  const ms = Number(env.OPENCODE_ACP_FS_TIMEOUT_MS);
  return Number.isFinite(ms) && ms > 0 ? ms : EDITOR_FS_TIMEOUT_MS;
}

export interface EditorFilesOptions {
  /** the connection to the editor, once it is there */
  client: () => AgentContext | undefined;
  /** the ACP session a tool's session belongs to (a sub-agent's root) */
  sessionFor: (sessionId: string) => string;
  /** resolves when the updates queued so far are sent (the editor learns of the call first) */
  flush: () => Promise<void>;
  /** the editor offers `fs/read_text_file` */
  canRead: boolean;
  /** the editor offers `fs/write_text_file` */
  canWrite: boolean;
  /** how long one request may go unanswered (ms); default {@link EDITOR_FS_TIMEOUT_MS} */
  timeoutMs?: number;
}

/**
 * The access the editor's capabilities allow; undefined when it offers neither (the tools use the disk).
 *
 * A read is abandoned when the tool's signal aborts (`session/cancel`: the editor gets
 * `$/cancel_request` and the turn ends at once, whether or not the editor ever answers). A write, once
 * sent, is waited for even then: the editor may have applied it, and the tools must record what they
 * changed. Either gives up after `timeoutMs` with an {@link EditorTimeoutError} that says so.
 */
export function createEditorFiles(options: EditorFilesOptions): FileAccess | undefined {
  if (!options.canRead && !options.canWrite) return undefined;
  const timeoutMs = options.timeoutMs ?? EDITOR_FS_TIMEOUT_MS;
  const seconds = `${timeoutMs / 1000} s`;
  const connected = (): AgentContext => {
    const client = options.client();
    if (!client) throw new Error('the editor is not connected');
    return client;
  };
  const access: FileAccess = {};
  if (options.canRead) {
    access.readTextFile = async (sessionId, path, signal) => {
      const client = connected();
      const timeout = AbortSignal.timeout(timeoutMs);
      try {
        const { content } = await client.request(
          methods.client.fs.readTextFile,
          { sessionId: options.sessionFor(sessionId), path },
          // without stopWaitingOnCancel a cancelled read would still wait for the editor's answer, forever if it never comes
          { cancellationSignal: AbortSignal.any([signal, timeout]), stopWaitingOnCancel: true },
        );
        return content;
      } catch (err) {
        if (timeout.aborted && !signal.aborted) {
          throw new EditorTimeoutError(
            `The editor did not answer fs/read_text_file for ${path} within ${seconds}. Try again; if it keeps happening, the editor is stuck: restart the agent from the editor.`,
          );
        }
        throw err;
      }
    };
  }
  if (options.canWrite) {
    access.writeTextFile = async (sessionId, path, text, signal) => {
      const client = connected();
      // the tool call's updates go first, so the editor knows the call the write belongs to
      await options.flush();
      signal.throwIfAborted();
      const timeout = AbortSignal.timeout(timeoutMs);
      try {
        // not cancelled with the call once sent (see above): only the timeout stops the wait
        await client.request(
          methods.client.fs.writeTextFile,
          { sessionId: options.sessionFor(sessionId), path, content: text },
          { cancellationSignal: timeout, stopWaitingOnCancel: true },
        );
      } catch (err) {
        if (!timeout.aborted) throw err;
        throw new EditorTimeoutError(
          `The editor did not confirm fs/write_text_file of ${path} within ${seconds}: the change may or may not be in its buffer. Read the file again with the view tool to see which.`,
        );
      }
    };
  }
  return access;
}
