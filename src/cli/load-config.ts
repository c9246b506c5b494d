/**
 * Loading `.opencode.json` for a command: problems are worded by the config module (one line each)
 * and become exit code 2; warnings go to stderr. Shared by the sub-commands (`mcp list`, `tools`, `profiles`, …);
 * `-p` and the TUI load it through their start (src/app/start.ts).
 */
import { tryLoadConfig, type LoadedConfig } from '../config/load.js';

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
