/**
 * The `diagnostics` tool (the original's, fixed) and the diagnostics appended to edit, write and
 * patch results. Both reach the project's language servers through `ctx.lsp` (the app puts the
 * `LspService` there when a server is configured or discovered); without it the
 * hooks do nothing and the tool is not registered.
 *
 * Fix over the original: the tool is registered whenever a server is configured or discovered, even
 * while it is still starting (a call waits for it), not only when clients happened to be up when the
 * agent was built, which was almost never.
 */
import { z } from 'zod';
import { formatChangeReport, formatDiagnosticsReport } from '../lsp/diagnostics.js';
import { defineTool, ToolError, type ToolContext } from './tool.js';
import { resolveToolPath } from './write-guard.js';

const DESCRIPTION = `Get errors and warnings from the project's language servers (type checkers, linters).

- file_path: a file to check; its server opens it and reports. Leave it out to get what the servers already know about every file they have seen.
- Edit, write and patch already append the errors and warnings they introduced; use this tool to check a file before changing it, or the project after changes made with bash.
- Lines read "Error: path:line:column [source][code] message", errors first; a summary with counts follows. Ignore problems that are unrelated to your task unless asked to fix them.`;

const parameters = z.object({
  file_path: z
    .string()
    .optional()
    .describe('File to check (absolute, or relative to the project directory); omit for every file the servers know'),
});

export const diagnosticsTool = defineTool({
  name: 'diagnostics',
  description: DESCRIPTION,
  parameters,
  readOnly: true,
  async run({ file_path }, ctx) {
    const lsp = ctx.lsp;
    if (!lsp?.hasServers) throw new ToolError('No language server is configured or installed for this project.');
    const path = file_path && file_path.trim() !== '' ? resolveToolPath(ctx, file_path) : undefined;
    const result = await lsp.query(path, ctx.signal);
    let output = formatDiagnosticsReport(path, result.file, result.project);
    if (!output) output = path ? `No errors or warnings in ${path}.\n` : 'No errors or warnings reported.\n';
    if (result.notes.length) output += `\n${result.notes.join('\n')}\n`;
    const counts = [...result.file, ...result.project];
    return {
      output,
      isError: false,
      metadata: {
        errors: counts.filter((d) => d.severity === 'error').length,
        warnings: counts.filter((d) => d.severity === 'warning').length,
      },
    };
  },
});

/** `view` read a file: its language server opens it in the background. Never throws, never waits. */
export function lspFileViewed(ctx: ToolContext, path: string, text: string): void {
  try {
    ctx.lsp?.viewed(path, text, ctx.sessionId);
  } catch {
    // diagnostics are a help, never a reason for view to fail
  }
}

/**
 * After edit, write or patch: tells the servers (`text` null for a deleted file) and returns the
 * diagnostics block to append to the result ('' when there is nothing to say or no server). Waits at
 * most each server's diagnostics timeout; never throws.
 */
export async function lspDiagnosticsAfterWrite(
  ctx: ToolContext,
  files: { path: string; text: string | null }[],
): Promise<string> {
  const lsp = ctx.lsp;
  if (!lsp) return '';
  try {
    const report = await lsp.changed(files, { tag: ctx.sessionId, signal: ctx.signal });
    return report ? formatChangeReport(report) : '';
  } catch {
    return '';
  }
}
