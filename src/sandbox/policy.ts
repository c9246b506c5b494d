/**
 * The sandbox policy as tables: which files inside the project decide what runs (mounted read-only),
 * which places under the home directory hold secrets (hidden), and how the settings become a
 * {@link SandboxPolicy} of absolute paths.
 */
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { gitEntry } from './protect.js';
import type { SandboxPolicy, SandboxSettings } from './types.js';

/** Paths relative to the project that a command run in the sandbox may not change, with the reason. */
export const PROTECTED_PROJECT_PATHS: ReadonlyArray<{ path: string; reason: string }> = [
  { path: '.opencode.json', reason: 'the project configuration: MCP servers, language servers, permission rules' },
  { path: '.opencode', reason: 'custom tools, plugins, commands and the project database' },
  { path: '.git/config', reason: 'git runs programs it names (core.fsmonitor, core.sshCommand, filters, aliases)' },
  { path: '.git/hooks', reason: 'git runs these on commit, checkout, merge and push' },
  { path: '.git/info', reason: 'attributes here pick the filters and diff drivers git runs' },
  { path: '.git/commondir', reason: 'names the git directory whose config and hooks git uses instead' },
  {
    path: '.git/config.worktree',
    reason: 'config git reads too (extensions.worktreeConfig): core.fsmonitor, core.hooksPath',
  },
  {
    path: '.git/modules',
    reason: "submodules' git directories: their config and hooks run on the top-level git status and commit",
  },
  { path: '.git/worktrees', reason: "linked worktrees' git directories: their config.worktree, commondir and hooks" },
  { path: 'node_modules/.bin', reason: 'programs npm scripts and opencode start by name' },
  { path: '.envrc', reason: 'direnv runs it on entering the directory' },
  { path: '.vscode', reason: 'editor tasks and settings that run programs when the folder opens' },
  { path: '.husky', reason: 'git hooks of projects that use husky (core.hooksPath)' },
  { path: '.pre-commit-config.yaml', reason: 'pre-commit runs the hooks it names on git commit' },
  { path: '.overcommit.yml', reason: 'overcommit runs the hooks and commands it names on git commit' },
  { path: '.git-hooks', reason: "overcommit's own hook scripts for the repository" },
  { path: '.lefthook', reason: "lefthook's hook scripts" },
  { path: '.lefthook-local', reason: "lefthook's local hook scripts" },
  // every name lefthook reads its config from (its docs, "Config file"): the commands its git hooks run
  ...[
    'lefthook',
    '.lefthook',
    '.config/lefthook',
    'lefthook-local',
    '.lefthook-local',
    '.config/lefthook-local',
  ].flatMap((base) =>
    ['yml', 'yaml', 'json', 'jsonc', 'toml'].map((ext) => ({
      path: `${base}.${ext}`,
      reason: 'lefthook: the commands its git hooks run',
    })),
  ),
];

/** Places under the home directory that hold credentials: hidden from every sandboxed command. */
export const SECRET_HOME_PATHS: ReadonlyArray<{ path: string; reason: string }> = [
  { path: '.ssh', reason: 'SSH private keys' },
  { path: '.aws', reason: 'AWS credentials' },
  { path: '.gnupg', reason: 'GnuPG private keys' },
  { path: '.config/gcloud', reason: 'Google Cloud credentials' },
  { path: '.azure', reason: 'Azure credentials' },
  { path: '.netrc', reason: 'passwords for hosts (curl, git, ftp)' },
  { path: '.docker/config.json', reason: 'registry credentials' },
  { path: '.kube', reason: 'Kubernetes cluster credentials' },
  { path: '.local/share/keyrings', reason: 'the GNOME keyring' },
  { path: '.password-store', reason: 'pass, the password manager' },
  { path: '.config/gh', reason: 'the GitHub CLI token' },
  { path: '.git-credentials', reason: 'git credential-store passwords' },
  // files, not the directory: its tools and themes stay readable
  { path: '.opencode.json', reason: "opencode's own configuration: provider API keys" },
  { path: '.config/opencode/.opencode.json', reason: "opencode's own configuration: provider API keys" },
];

/**
 * opencode's configuration under `$XDG_CONFIG_HOME` when that is set (config/light.ts looks there),
 * hidden as the secret places are: it can hold provider API keys.
 */
export function xdgSecretPaths(
  env: Record<string, string | undefined> = process.env,
): Array<{ path: string; reason: string }> {
  const base = env.XDG_CONFIG_HOME;
  if (!base || !isAbsolute(base)) return [];
  return [
    { path: join(base, 'opencode', '.opencode.json'), reason: "opencode's own configuration: provider API keys" },
  ];
}

/**
 * Builds the policy for a project. Paths in the settings may be absolute, `~/…` or relative to the
 * project. Only existing paths are listed: a mount needs its target, and a missing secret place holds
 * nothing to hide (the home directory is read-only, so it can't be created either).
 */
export function buildPolicy(settings: SandboxSettings, projectDir: string, home: string): SandboxPolicy {
  const project = realOrSelf(projectDir);
  const toAbsolute = (p: string) =>
    realOrSelf(
      p === '~' ? home : p.startsWith('~/') ? join(home, p.slice(2)) : isAbsolute(p) ? p : resolve(project, p),
    );
  const writable = unique(settings.allowWrite.map(toAbsolute).filter((p) => existsSync(p)));
  const protectedPaths = unique([
    ...PROTECTED_PROJECT_PATHS.map((entry) => join(project, entry.path)),
    ...gitEntry(project),
    ...configuredHooksPaths(project, home),
  ]);
  const secretPaths = unique(
    [
      ...SECRET_HOME_PATHS.map((entry) => join(home, entry.path)),
      ...xdgSecretPaths().map((entry) => entry.path),
      ...settings.denyRead.map(toAbsolute),
    ].filter((p) => existsSync(p)),
  );
  return { projectDir: project, writable, protectedPaths, secretPaths, allowedDomains: [...settings.allowedDomains] };
}

/** The settings as the config's `sandbox` value gives them: a mode string, or the object form. */
export function sandboxSettings(value: SandboxConfigValue | undefined): SandboxSettings {
  if (value === undefined) return { mode: 'auto', allowWrite: [], denyRead: [], allowedDomains: [] };
  if (typeof value === 'string') return { mode: value, allowWrite: [], denyRead: [], allowedDomains: [] };
  return {
    mode: value.mode ?? 'auto',
    allowWrite: value.allowWrite ?? [],
    denyRead: value.denyRead ?? [],
    allowedDomains: value.network?.allowedDomains ?? [],
  };
}

/** The config's `sandbox` value (see `config/schema.ts`). */
export type SandboxConfigValue =
  | SandboxSettings['mode']
  | {
      mode?: SandboxSettings['mode'];
      allowWrite?: string[];
      denyRead?: string[];
      network?: { allowedDomains?: string[] };
    };

/**
 * The hooks directories `core.hooksPath` names in the project's git config (`.git/config`,
 * `.git/config.worktree`) and the person's (`~/.gitconfig`, `~/.config/git/config`), resolved as git
 * does: `~/` from the home directory, a relative path from the work tree (where hooks run). Read as text
 * so that no git process starts per project; `include` and `includeIf` files are not followed.
 */
export function configuredHooksPaths(projectDir: string, home?: string): string[] {
  const files = [join(projectDir, '.git', 'config'), join(projectDir, '.git', 'config.worktree')];
  if (home) files.push(join(home, '.gitconfig'), join(home, '.config', 'git', 'config'));
  const found: string[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const value of hooksPathValues(text)) {
      const path = value.startsWith('~/') && home ? join(home, value.slice(2)) : value;
      found.push(isAbsolute(path) ? path : resolve(projectDir, path));
    }
  }
  return found;
}

/** The `core.hooksPath` values of a git config text (git-config(1) "CONFIGURATION FILE": `[core] hooksPath = x` may share a line). */
export function hooksPathValues(text: string): string[] {
  const values: string[] = [];
  let inCore = false;
  for (const raw of text.split('\n')) {
    let line = raw.trim();
    const section = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"(?:[^"\\]|\\.)*")?\s*\]/.exec(line);
    if (section) {
      // `[core "x"]` is a subsection: its hooksPath is not core.hooksPath
      inCore = section[1]!.toLowerCase() === 'core' && !section[0].includes('"');
      line = line.slice(section[0].length).trim();
    }
    const entry = /^hookspath\s*=\s*(.*)$/i.exec(line);
    if (!inCore || !entry) continue;
    const value = configValue(entry[1]!);
    if (value) values.push(value);
  }
  return values;
}

/** A config value as git reads it: quotes removed, `\"` and `\\` unescaped, a `#` or `;` outside quotes starts a comment. */
function configValue(raw: string): string {
  let out = '';
  let quoted = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === '\\' && i + 1 < raw.length) {
      const next = raw[++i]!;
      out += next === 'n' ? '\n' : next === 't' ? '\t' : next;
    } else if (c === '"') quoted = !quoted;
    else if (!quoted && (c === '#' || c === ';')) break;
    else out += c;
  }
  return out.trim();
}

/** true when `path` is a directory (following links) */
export function isDirectoryPath(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function unique(paths: string[]): string[] {
  return [...new Set(paths)];
}
