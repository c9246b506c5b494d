/**
 * Writes one setting back to the global config file, as the TUI does when the person picks a model or
 * a theme (reference §8). Unlike the original, which re-serialised its whole Config struct (losing unknown
 * keys and inverting `lsp.disabled`), only the one key changes; everything else in the file is kept.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, checkFile, globalConfigCandidates, type LoadConfigOptions } from './load.js';
import { parseJsonText } from './json-text.js';

/**
 * Sets `keyPath` (e.g. `['tui', 'theme']` or `['agents', 'coder', 'model']`) to `value` in the global
 * config file: the first existing candidate, or `$HOME/.opencode.json` when there is none. Writes
 * atomically (temp file + rename), 2-space indented. Returns the file written.
 * @throws {ConfigError} when the existing file is invalid JSON, or the new value does not fit the schema
 *   (nothing is written then).
 */
export function setGlobalConfigValue(
  options: Pick<LoadConfigOptions, 'env' | 'home'>,
  keyPath: readonly string[],
  value: unknown,
): string {
  if (keyPath.length === 0) throw new ConfigError(['setGlobalConfigValue: empty key path']);
  const candidates = globalConfigCandidates(options);
  let file = candidates[0];
  let document: Record<string, unknown> = {};
  for (const candidate of candidates) {
    const text = readIfExists(candidate);
    if (text === undefined) continue;
    file = candidate;
    const checked = checkFile(candidate, text);
    // Only syntax (or top-level) errors stop us; a bad value elsewhere is the person's to fix and is kept.
    if (!checked.value) throw new ConfigError(checked.errors);
    document = parseJsonText(text) as Record<string, unknown>;
    break;
  }

  let node = document;
  for (const key of keyPath.slice(0, -1)) {
    const child = node[key];
    if (child === null || typeof child !== 'object' || Array.isArray(child)) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[keyPath[keyPath.length - 1]] = value;

  const problems = checkFile(file, JSON.stringify(document)).errors.filter((line) =>
    line.startsWith(`${file}: ${keyPath.join('.')}`),
  );
  if (problems.length > 0) throw new ConfigError(problems);

  mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(document, null, 2)}\n`, { mode: 0o600 });
  renameSync(temp, file);
  return file;
}

function readIfExists(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ConfigError([`${file}: cannot read: ${(err as Error).message}`]);
  }
}

