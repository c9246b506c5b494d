/**
 * Edits through the editor's buffers (ACP `fs/write_text_file`): the {@link EditorFiles} the file
 * tools hand their new text to in `opencode acp` when the editor offers it.
 *
 * The tools read from disk. An open buffer with unsaved changes would be overwritten by a text made
 * from the disk's version, so when the editor also offers `fs/read_text_file` the buffer is read
 * first and a write is refused when it differs from the disk: the model is told to have the person
 * save (or revert) the file, then read it again.
 */
import { methods, type AgentContext } from '@agentclientprotocol/sdk';
import { normalizeLineEndings, readDocument } from '../tools/text-document.js';
import { statIfExists, type EditorFiles } from '../tools/write-guard.js';

export interface EditorFilesOptions {
  /** the connection to the editor, once it is there */
  client: () => AgentContext | undefined;
  /** the ACP session a tool's session belongs to (a sub-agent's root) */
  sessionFor: (sessionId: string) => string;
  /** resolves when the updates queued so far are sent (the editor learns of the call first) */
  flush: () => Promise<void>;
  /** the editor offers `fs/read_text_file` */
  canRead: boolean;
}

/** Thrown (inside the tool's error) when the editor's buffer holds changes the disk does not. */
export class UnsavedChangesError extends Error {
  constructor(path: string) {
    super(`${path} has unsaved changes in the editor. Ask the person to save or revert them, then read the file again with view before changing it.`);
    this.name = 'UnsavedChangesError';
  }
}

export function createEditorFiles(options: EditorFilesOptions): EditorFiles {
  return {
    async writeTextFile(sessionId, path, text, signal) {
      const client = options.client();
      if (!client) throw new Error('the editor is not connected');
      const acpSession = options.sessionFor(sessionId);
      await options.flush();
      if (options.canRead) await refuseUnsavedChanges(client, acpSession, path, signal);
      await client.request(methods.client.fs.writeTextFile, { sessionId: acpSession, path, content: text }, { cancellationSignal: signal });
    },
  };
}

/** Compares the editor's text of `path` with the disk's (both with `\n` line endings, no byte order mark). */
async function refuseUnsavedChanges(client: AgentContext, sessionId: string, path: string, signal: AbortSignal): Promise<void> {
  // a new file has no buffer to lose
  if (!statIfExists(path)) return;
  let buffer: string;
  try {
    ({ content: buffer } = await client.request(methods.client.fs.readTextFile, { sessionId, path }, { cancellationSignal: signal }));
  } catch {
    // an editor that cannot read it has no buffer of it either
    return;
  }
  const disk = readDocument(path).text;
  if (normalizeLineEndings(buffer.replace(/^\uFEFF/, '')) !== disk) throw new UnsavedChangesError(path);
}
