/**
 * The folders and files the read-only search tools leave out, as data (the original's lists for glob, grep and ls).
 *
 * Every rule here applies to paths **relative to the search root**, never to the absolute path:
 * the original matched whole paths, so a project under `/tmp`, `~/build` or `~/bin` listed nothing.
 * A root that is itself named `build` still lists its contents.
 */

/** A name to skip, and why a person would want it skipped. */
export interface SkipRule {
  name: string;
  reason: string;
}

/**
 * Folders `glob` leaves out wherever they appear below the root (the original's `SkipHidden` list).
 * A pattern that names one (`node_modules/react/**`) reaches it.
 */
export const GLOB_IGNORED_FOLDERS: readonly SkipRule[] = [
  { name: '.opencode', reason: "this tool's own data directory" },
  { name: 'node_modules', reason: 'installed npm packages' },
  { name: 'vendor', reason: 'vendored dependencies (Go, PHP, Ruby)' },
  { name: 'dist', reason: 'build output' },
  { name: 'build', reason: 'build output' },
  { name: 'target', reason: 'Rust / Maven build output' },
  { name: '.git', reason: 'git internals' },
  { name: '.idea', reason: 'JetBrains settings' },
  { name: '.vscode', reason: 'VS Code settings' },
  { name: '__pycache__', reason: 'Python bytecode cache' },
  { name: 'bin', reason: 'compiled binaries' },
  { name: 'obj', reason: '.NET intermediate output' },
  { name: 'out', reason: 'build output' },
  { name: 'coverage', reason: 'test coverage reports' },
  { name: 'tmp', reason: 'scratch files' },
  { name: 'temp', reason: 'scratch files' },
  { name: 'logs', reason: 'log files' },
  { name: 'generated', reason: 'generated code' },
  { name: 'bower_components', reason: 'installed Bower packages' },
  { name: 'jspm_packages', reason: 'installed jspm packages' },
];

/** Names `ls` skips below the root, files or folders (the original's `commonIgnored`). */
export const LS_SKIPPED_NAMES: readonly SkipRule[] = [
  { name: '__pycache__', reason: 'Python bytecode cache' },
  { name: 'node_modules', reason: 'installed npm packages' },
  { name: 'dist', reason: 'build output' },
  { name: 'build', reason: 'build output' },
  { name: 'target', reason: 'Rust / Maven build output' },
  { name: 'vendor', reason: 'vendored dependencies' },
  { name: 'bin', reason: 'compiled binaries' },
  { name: 'obj', reason: '.NET intermediate output' },
  { name: '.git', reason: 'git internals' },
  { name: '.idea', reason: 'JetBrains settings' },
  { name: '.vscode', reason: 'VS Code settings' },
  { name: '.DS_Store', reason: 'macOS folder metadata' },
];

/** File extensions `ls` skips: compiled artefacts nobody reads. */
export const LS_SKIPPED_EXTENSIONS: readonly SkipRule[] = [
  { name: '.pyc', reason: 'Python bytecode' },
  { name: '.pyo', reason: 'optimised Python bytecode' },
  { name: '.pyd', reason: 'Python extension module (Windows)' },
  { name: '.so', reason: 'shared library' },
  { name: '.dll', reason: 'Windows library' },
  { name: '.exe', reason: 'Windows executable' },
];

/** Whether `name` (one path segment) is hidden: starts with a dot. */
export function isHiddenName(name: string): boolean {
  return name.startsWith('.') && name !== '.' && name !== '..';
}

/**
 * A test for root-relative `/`-separated paths: true when some segment is one of `names`.
 * Returns undefined when `names` is empty (nothing to test).
 */
export function segmentFilter(names: Iterable<string>): ((relPath: string) => boolean) | undefined {
  const list = [...names];
  if (list.length === 0) return undefined;
  const alternatives = list.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
  const re = new RegExp(`(?:^|/)(?:${alternatives})(?:/|$)`);
  return (relPath) => re.test(relPath);
}
