/**
 * `workspace/applyEdit` from a language server: each file's change is shown and asked like
 * an edit (the permission service, tool name `edit`, so the person's edit rules apply), then written
 * through the same encoding-preserving path as edit (`text-document.ts`: encoding, BOM and line
 * endings kept, atomic write). The original wrote to disk without asking.
 *
 * The file is not marked as read: the model must view it again before editing it.
 */
import type { FileHistory } from '../tools/file-history.js';
import type { PermissionService } from '../permission/service.js';
import { fileDiff } from '../tools/diff.js';
import { encodeDocument, readDocument, writeFileAtomic } from '../tools/text-document.js';
import type { WorkspaceEdit } from '../lsp/client.js';
import type { ApplyEditHandler, LspService } from '../lsp/service.js';
import { applyTextEdits } from '../lsp/text-edits.js';
import { uriToPath } from '../lsp/uri.js';

export interface ApplyEditDeps {
  cwd: string;
  permission: PermissionService;
  fileHistory: FileHistory;
  /** the service, to send the new text back to the servers (set once built) */
  lsp: () => LspService | undefined;
}

/** The handler the app gives the LSP service. `tag` is the session whose tool calls last reached the servers. */
export function createApplyEditHandler(deps: ApplyEditDeps): ApplyEditHandler {
  return async (edit, label, tag) => {
    if (!tag) return { applied: false, failureReason: 'no session to ask the person in' };
    const files = editsByFile(edit);
    if ('error' in files) return { applied: false, failureReason: files.error };
    const prepared = [];
    for (const [path, edits] of files) {
      const document = readDocument(path);
      const after = applyTextEdits(document.text, edits);
      if (after === document.text) continue;
      prepared.push({
        path,
        before: document.text,
        after,
        bytes: encodeDocument(document, after),
        diff: fileDiff(deps.cwd, path, document.text, after),
      });
    }
    for (const change of prepared) {
      try {
        await deps.permission.request(tag, 'edit', {
          action: 'write',
          description: `Language server edit${label ? ` (${label})` : ''}: replace content in file ${change.path}`,
          params: { file_path: change.path, diff: change.diff.diff },
          path: change.path,
          subject: { kind: 'files', paths: [change.path] },
        });
      } catch (err) {
        return { applied: false, failureReason: `not allowed: ${(err as Error).message}` };
      }
    }
    for (const change of prepared) {
      writeFileAtomic(change.path, change.bytes);
      try {
        deps.fileHistory.recordWrite(tag, change.path, change.before, change.after);
      } catch {
        // history is for the UI
      }
    }
    void deps.lsp()?.changed(prepared.map((c) => ({ path: c.path, text: c.after })));
    return { applied: true };
  };
}

function editsByFile(edit: WorkspaceEdit): Map<string, import('../lsp/client.js').TextEdit[]> | { error: string } {
  const files = new Map<string, import('../lsp/client.js').TextEdit[]>();
  const add = (uri: string, edits: import('../lsp/client.js').TextEdit[]): string | undefined => {
    const path = uriToPath(uri);
    if (!path) return `not a file URI: ${uri}`;
    files.set(path, [...(files.get(path) ?? []), ...edits]);
    return undefined;
  };
  for (const [uri, edits] of Object.entries(edit.changes ?? {})) {
    const error = add(uri, edits);
    if (error) return { error };
  }
  for (const change of edit.documentChanges ?? []) {
    if (!('textDocument' in change)) return { error: `file operations (${change.kind}) are not supported` };
    const error = add(change.textDocument.uri, change.edits);
    if (error) return { error };
  }
  return files;
}
