/**
 * The editor's buffers as the file tools' {@link FileAccess} (issue 15): in `opencode acp`, when the
 * editor offers ACP's `fs/read_text_file`, `view`, `edit`, `write` and `patch` read a file's text
 * through it (an open buffer's unsaved changes included), and when it offers `fs/write_text_file` they
 * hand it the new text, so the change lands in the buffer the person sees and the editor's undo works.
 * What the tools do with that text (checks, permission, history) is `tools/write-guard.ts`'s business.
 */
import { methods, type AgentContext } from '@agentclientprotocol/sdk';
import type { FileAccess } from '../tools/file-access.js';

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
}

/** The access the editor's capabilities allow; undefined when it offers neither (the tools use the disk). */
export function createEditorFiles(options: EditorFilesOptions): FileAccess | undefined {
  if (!options.canRead && !options.canWrite) return undefined;
  const connected = (): AgentContext => {
    const client = options.client();
    if (!client) throw new Error('the editor is not connected');
    return client;
  };
  const access: FileAccess = {};
  if (options.canRead) {
    access.readTextFile = async (sessionId, path, signal) => {
      const client = connected();
      const { content } = await client.request(
        methods.client.fs.readTextFile,
        { sessionId: options.sessionFor(sessionId), path },
        { cancellationSignal: signal },
      );
      return content;
    };
  }
  if (options.canWrite) {
    access.writeTextFile = async (sessionId, path, text, signal) => {
      const client = connected();
      // the tool call's updates go first, so the editor knows the call the write belongs to
      await options.flush();
      await client.request(methods.client.fs.writeTextFile, { sessionId: options.sessionFor(sessionId), path, content: text }, { cancellationSignal: signal });
    };
  }
  return access;
}
