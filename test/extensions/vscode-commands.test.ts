/**
 * The VS Code extension (extensions/vscode) as VS Code runs it: its bundle, built with esbuild as
 * `npm run build:vscode` builds it, loaded with a stand-in of the `vscode` module (no VS Code can
 * be downloaded here). The stand-in records what the extension registers and creates; its fake
 * terminal starts the TUI's real channel end (src/tui/editor-channel.ts) with the variables the
 * extension gave it, so the text sent is what a running opencode would receive.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- the stand-in takes whatever the extension hands the vscode module */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mentionFor, pathCandidates } from '../../extensions/vscode/src/mention.js';
import { openEditorChannel, type EditorChannel } from '../../src/tui/editor-channel.js';

const EXTENSION = join(import.meta.dirname, '../../extensions/vscode');

interface FakeUri {
  scheme: string;
  fsPath: string;
  path: string;
  toString(): string;
}
const fileUri = (p: string): FakeUri => ({ scheme: 'file', fsPath: p, path: p, toString: () => `file://${p}` });

interface FakeTerminal {
  name: string;
  creationOptions: any;
  exitStatus?: { code: number };
  shown: number;
  show(): void;
}

/** What the extension did to the stand-in. */
const seen = {
  commands: new Map<string, (...args: any[]) => any>(),
  executed: [] as unknown[][],
  terminals: [] as FakeTerminal[],
  errors: [] as string[],
  appended: [] as string[],
  focused: 0,
  closeListeners: [] as ((t: FakeTerminal) => void)[],
  linkProvider: undefined as any,
  contentProviders: new Map<string, any>(),
};
const channels: EditorChannel[] = [];
let root: string;
let activeEditor:
  | {
      document: { uri: FakeUri };
      selection: { start: { line: number; character: number }; end: { line: number; character: number } };
    }
  | undefined;

const disposable = { dispose() {} };
/** The part of the `vscode` API the extension uses, as the @types/vscode 1.85 declarations shape it. */
const vscode = {
  ViewColumn: { Beside: -2 },
  Uri: {
    file: fileUri,
    from: (c: { scheme: string; path: string }) => ({ ...c, fsPath: c.path, toString: () => `${c.scheme}:${c.path}` }),
  },
  commands: {
    registerCommand: (id: string, fn: (...args: any[]) => any) => (seen.commands.set(id, fn), disposable),
    executeCommand: async (...args: unknown[]) => void seen.executed.push(args),
  },
  window: {
    get activeTextEditor() {
      return activeEditor;
    },
    createTerminal(options: any) {
      const terminal: FakeTerminal = {
        name: options.name,
        creationOptions: options,
        exitStatus: undefined,
        shown: 0,
        show() {
          this.shown++;
        },
      };
      seen.terminals.push(terminal);
      // what opencode does when the terminal starts it with these variables
      void openEditorChannel(
        { ...options.env },
        { append: (t) => seen.appended.push(t), focus: () => seen.focused++ },
      ).then((c) => c && channels.push(c));
      return terminal;
    },
    onDidCloseTerminal: (listener: (t: FakeTerminal) => void) => (seen.closeListeners.push(listener), disposable),
    registerTerminalLinkProvider: (provider: unknown) => ((seen.linkProvider = provider), disposable),
    showErrorMessage: async (message: string) => void seen.errors.push(message),
  },
  workspace: {
    get workspaceFolders() {
      return [{ uri: fileUri(root) }];
    },
    getWorkspaceFolder: () => ({ uri: fileUri(root) }),
    asRelativePath: (uri: FakeUri) => relative(root, uri.fsPath),
    getConfiguration: () => ({ get: () => undefined }),
    registerTextDocumentContentProvider: (scheme: string, provider: unknown) => (
      seen.contentProviders.set(scheme, provider),
      disposable
    ),
  },
};

let extension: { activate(context: { subscriptions: unknown[] }): void; deactivate(): void };
let outDir: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'oc-vscode-ws-'));
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src', 'app.ts'), 'export const a = 1;\n');
  writeFileSync(join(root, 'README.md'), '# demo\n');
  execFileSync('git', ['init', '-q'], { cwd: root });
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'first', '--allow-empty'], {
    cwd: root,
  });
  execFileSync('git', ['add', '.'], { cwd: root });
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'files'], { cwd: root });
  writeFileSync(join(root, 'src', 'app.ts'), 'export const a = 2;\n');

  outDir = mkdtempSync(join(tmpdir(), 'oc-vscode-build-'));
  // the options of extensions/vscode/build.mjs
  await build({
    entryPoints: [join(EXTENSION, 'src/extension.ts')],
    outfile: join(outDir, 'extension.js'),
    bundle: true,
    platform: 'node',
    target: 'node18',
    format: 'cjs',
    external: ['vscode'],
    logLevel: 'silent',
  });
  const loader = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
  const load = loader._load;
  loader._load = function (request: string, ...rest: unknown[]) {
    return request === 'vscode' ? vscode : load.call(this, request, ...rest);
  };
  try {
    extension = createRequire(import.meta.url)(join(outDir, 'extension.js'));
  } finally {
    loader._load = load;
  }
  extension.activate({ subscriptions: [] });
});

afterAll(async () => {
  extension?.deactivate();
  for (const c of channels) await c.close();
  for (const d of [root, outDir]) if (d) rmSync(d, { recursive: true, force: true });
});

describe('mentionFor', () => {
  const at = (line: number, character: number) => ({ line, character });
  it.each([
    ['no selection', undefined, '@src/app.ts'],
    ['a cursor only', { start: at(4, 2), end: at(4, 2) }, '@src/app.ts'],
    ['within one line', { start: at(9, 0), end: at(9, 7) }, '@src/app.ts#L10'],
    ['lines 10 to 24', { start: at(9, 3), end: at(23, 1) }, '@src/app.ts#L10-24'],
    ['ending at the start of line 25', { start: at(9, 0), end: at(24, 0) }, '@src/app.ts#L10-24'],
  ])('%s', (_name, selection, expected) => expect(mentionFor('src/app.ts', selection)).toBe(expected));

  it('writes forward slashes', () => expect(mentionFor('src\\win\\a.ts')).toBe('@src/win/a.ts'));
});

describe('pathCandidates', () => {
  it('finds the paths in a tool line', () => {
    expect(pathCandidates('  Edit src/app.ts (2 lines), then README.md')).toEqual([
      { text: 'src/app.ts', startIndex: 7 },
      { text: 'README.md', startIndex: 34 },
    ]);
  });
});

describe('the extension against a stand-in vscode', () => {
  it('registers the commands its package.json contributes, with the keys and menus', () => {
    const manifest = JSON.parse(readFileSync(join(EXTENSION, 'package.json'), 'utf8'));
    expect([...seen.commands.keys()]).toEqual(['opencode.open', 'opencode.addFile']);
    expect(manifest.contributes.commands.map((c: { command: string }) => c.command)).toEqual([
      'opencode.open',
      'opencode.addFile',
    ]);
    expect(manifest.contributes.keybindings).toEqual([
      { command: 'opencode.open', key: 'ctrl+escape', mac: 'cmd+escape' },
      { command: 'opencode.addFile', key: 'ctrl+alt+k', mac: 'cmd+alt+k' },
    ]);
    expect(Object.keys(manifest.contributes.menus)).toEqual(['editor/title', 'explorer/context', 'editor/context']);
  });

  it('Open opencode starts it beside the editor in the workspace folder, with a private channel', async () => {
    await seen.commands.get('opencode.open')!();
    expect(seen.terminals).toHaveLength(1);
    const { creationOptions } = seen.terminals[0];
    expect({ ...creationOptions, env: undefined }).toEqual({
      name: 'opencode',
      cwd: root,
      shellPath: 'opencode',
      env: undefined,
      location: { viewColumn: -2 },
    });
    expect(creationOptions.env.OPENCODE_VSCODE_TOKEN).toMatch(/^[0-9a-f]{64}$/);
    const dir = join(creationOptions.env.OPENCODE_VSCODE_SOCKET, '..');
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  it('Open opencode again shows the same terminal', async () => {
    await seen.commands.get('opencode.open')!();
    expect(seen.terminals).toHaveLength(1);
    expect(seen.terminals[0].shown).toBe(2);
  });

  it('Add file sends the selection as @path#L10-24 to the running opencode and focuses it', async () => {
    activeEditor = {
      document: { uri: fileUri(join(root, 'src', 'app.ts')) },
      selection: { start: { line: 9, character: 2 }, end: { line: 23, character: 5 } },
    };
    expect(await seen.commands.get('opencode.addFile')!()).toBe('@src/app.ts#L10-24');
    expect(seen.appended).toEqual(['@src/app.ts#L10-24']);
    expect(seen.focused).toBe(1);
    expect(seen.terminals).toHaveLength(1);
    expect(seen.terminals[0].shown).toBe(4); // shown on open and once the text is in
  });

  it("Add file from the explorer sends that file, without the editor's selection", async () => {
    expect(await seen.commands.get('opencode.addFile')!(fileUri(join(root, 'README.md')))).toBe('@README.md');
    expect(seen.appended).toEqual(['@src/app.ts#L10-24', '@README.md']);
    expect(seen.errors).toEqual([]);
  });

  it('links the paths opencode prints to the diff against git HEAD', async () => {
    const terminal = seen.terminals[0];
    const links = seen.linkProvider.provideTerminalLinks({ terminal, line: 'Edit src/app.ts and gone.ts' });
    expect(links).toEqual([
      { startIndex: 5, length: 10, tooltip: 'Show the changes since git HEAD', file: join(root, 'src', 'app.ts') },
    ]);
    expect(seen.linkProvider.provideTerminalLinks({ terminal: { name: 'bash' }, line: 'Edit src/app.ts' })).toEqual([]);
    await seen.linkProvider.handleTerminalLink(links[0]);
    const [command, head, now, title] = seen.executed.at(-1)!;
    expect([command, (head as FakeUri).scheme, (head as FakeUri).path, (now as FakeUri).fsPath, title]).toEqual([
      'vscode.diff',
      'opencode-head',
      join(root, 'src', 'app.ts'),
      join(root, 'src', 'app.ts'),
      'app.ts (HEAD ↔ now)',
    ]);
    const provider = seen.contentProviders.get('opencode-head');
    expect(await provider.provideTextDocumentContent(head)).toBe('export const a = 1;\n');
  });

  it('a closed terminal is not reused: the next Open starts a new one, and the old channel folder goes', async () => {
    const old = seen.terminals[0];
    const oldDir = join(old.creationOptions.env.OPENCODE_VSCODE_SOCKET, '..');
    old.exitStatus = { code: 0 };
    for (const listener of seen.closeListeners) listener(old);
    expect(existsSync(oldDir)).toBe(false);
    await seen.commands.get('opencode.open')!();
    expect(seen.terminals).toHaveLength(2);
    expect(seen.terminals[1].creationOptions.env.OPENCODE_VSCODE_TOKEN).not.toBe(
      old.creationOptions.env.OPENCODE_VSCODE_TOKEN,
    );
  });
});
