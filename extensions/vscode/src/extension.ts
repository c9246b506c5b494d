/**
 * opencode in VS Code: the terminal stays the interface, the extension only brings it closer.
 * - **Open opencode** starts `opencode` in a terminal beside the editor, in the workspace folder,
 *   or shows the one this window already runs.
 * - **Add file to the prompt** puts `@path` (with `#L10-24` for a selection) at the end of that
 *   opencode's prompt, without sending it, and focuses its terminal; it opens opencode first when
 *   none runs.
 * - A path opencode prints in its terminal is a link: it opens VS Code's diff view of the file's
 *   last committed version (git HEAD) against the file as it is now.
 */
import { execFile } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join } from 'node:path';
import * as vscode from 'vscode';
import { disposeChannel, newChannel, send, SOCKET_VAR, TOKEN_VAR, type ChannelAddress } from './channel-client.js';
import { mentionFor, pathCandidates } from './mention.js';

/** The URI scheme of a file's git HEAD version, the left side of the diff view. */
export const HEAD_SCHEME = 'opencode-head';
const TERMINAL_NAME = 'opencode';

/** The opencode this window runs: its terminal and its channel. */
interface Running {
  terminal: vscode.Terminal;
  channel: ChannelAddress;
  cwd: string;
}

let running: Running | undefined;

/** Registers the commands, the terminal links and the HEAD version provider. */
export function activate(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('opencode.open', () => openOpencode()),
    vscode.commands.registerCommand('opencode.addFile', (uri?: vscode.Uri) => addFile(uri)),
    vscode.window.onDidCloseTerminal((closed) => {
      if (running?.terminal !== closed) return;
      disposeChannel(running.channel);
      running = undefined;
    }),
    vscode.window.registerTerminalLinkProvider({
      provideTerminalLinks: (context: vscode.TerminalLinkContext) => linksIn(context),
      handleTerminalLink: (link: PathLink) => openDiff(link.file),
    }),
    vscode.workspace.registerTextDocumentContentProvider(HEAD_SCHEME, {
      provideTextDocumentContent: (uri) => headVersion(uri.path),
    }),
  );
}

/** Ends the channel of the opencode this window started (the terminal closes with the window). */
export function deactivate(): void {
  if (running) disposeChannel(running.channel);
  running = undefined;
}

/** The folder opencode runs in: the active file's workspace folder, else the first one. */
function workspaceFolder(): string | undefined {
  const active = vscode.window.activeTextEditor?.document.uri;
  const folder = (active && vscode.workspace.getWorkspaceFolder(active)) ?? vscode.workspace.workspaceFolders?.[0];
  return folder?.uri.fsPath;
}

/** Shows the running opencode, or starts one beside the editor. */
export function openOpencode(): Running | undefined {
  if (running && running.terminal.exitStatus === undefined) {
    running.terminal.show(false);
    return running;
  }
  const cwd = workspaceFolder();
  if (!cwd) {
    void vscode.window.showErrorMessage('opencode: open a folder first; opencode works in a project folder.');
    return undefined;
  }
  const channel = newChannel();
  const command = vscode.workspace.getConfiguration('opencode').get<string>('command') || 'opencode';
  const terminal = vscode.window.createTerminal({
    name: TERMINAL_NAME,
    cwd,
    shellPath: command,
    env: { [SOCKET_VAR]: channel.socketPath, [TOKEN_VAR]: channel.token },
    location: { viewColumn: vscode.ViewColumn.Beside },
  });
  terminal.show(false);
  running = { terminal, channel, cwd };
  return running;
}

/** Sends `@path` (and the selection's lines) for `uri`, or the active editor's file, to opencode. */
export async function addFile(uri?: vscode.Uri): Promise<string | undefined> {
  const editor = vscode.window.activeTextEditor;
  const target = uri ?? editor?.document.uri;
  if (!target || target.scheme !== 'file') {
    void vscode.window.showErrorMessage('opencode: no file to add; open a file or pick one in the explorer.');
    return undefined;
  }
  const sameAsEditor = editor && editor.document.uri.toString() === target.toString();
  const text = mentionFor(vscode.workspace.asRelativePath(target, false), sameAsEditor ? editor.selection : undefined);
  const session = openOpencode();
  if (!session) return undefined;
  try {
    const reply = await send(session.channel, { type: 'append', text });
    if (!reply.ok) throw new Error(reply.error);
    await send(session.channel, { type: 'focus' });
  } catch (err) {
    void vscode.window.showErrorMessage(
      `opencode: could not add ${text}: ${err instanceof Error ? err.message : String(err)}`,
    );
    return undefined;
  }
  session.terminal.show(false);
  return text;
}

/** A link over a path opencode printed. */
interface PathLink extends vscode.TerminalLink {
  file: string;
}

/** The paths in a line of opencode's terminal that name files of its folder. */
function linksIn(context: vscode.TerminalLinkContext): PathLink[] {
  if (!running || context.terminal !== running.terminal) return [];
  const cwd = running.cwd;
  return pathCandidates(context.line).flatMap(({ text, startIndex }) => {
    const file = isAbsolute(text) ? text : join(cwd, text);
    if (!existsSync(file) || !statSync(file).isFile()) return [];
    return [{ startIndex, length: text.length, tooltip: 'Show the changes since git HEAD', file }];
  });
}

/** Opens the diff view: the file at git HEAD on the left, the file now on the right. */
export async function openDiff(file: string): Promise<void> {
  const now = vscode.Uri.file(file);
  const head = vscode.Uri.from({ scheme: HEAD_SCHEME, path: now.path });
  await vscode.commands.executeCommand('vscode.diff', head, now, `${basename(file)} (HEAD ↔ now)`);
}

/** The file's text at git HEAD; empty when it is new or not in a repository. */
export function headVersion(file: string): Promise<string> {
  return new Promise((resolve) => {
    execFile(
      'git',
      ['show', `HEAD:./${basename(file)}`],
      { cwd: dirname(file), maxBuffer: 64 * 1024 * 1024 },
      (err, stdout) => resolve(err ? '' : stdout),
    );
  });
}
