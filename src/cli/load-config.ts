/**
 * Loading `.opencode.json` for a command: problems are worded by the config module (one line each)
 * and become exit code 2; warnings go to stderr. Shared by `-p`, `mcp list` and the TUI.
 */
import { ConfigError, loadConfig, type LoadedConfig } from '../config/load.js';

/** The loaded config, or the lines that say what is wrong with it. Never throws. */
export function tryLoadConfig(cwd: string, env: Record<string, string | undefined> = process.env): LoadedConfig | { problems: string[] } {
  try {
    return loadConfig({ cwd, env });
  } catch (err) {
    // e.g. a file nested too deeply to merge: still a configuration problem, still one line
    return { problems: err instanceof ConfigError ? err.lines : [`opencode: cannot load .opencode.json: ${(err as Error).message}`] };
  }
}

/** The loaded config, or the exit code (2) after the problems were printed. */
export function loadConfigForCommand(cwd: string): LoadedConfig | number {
  const loaded = tryLoadConfig(cwd);
  if ('problems' in loaded) {
    for (const line of loaded.problems) process.stderr.write(`${line}\n`);
    return 2;
  }
  for (const warning of loaded.warnings) process.stderr.write(`warning: ${warning}\n`);
  return loaded;
}
