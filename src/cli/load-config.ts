/**
 * Loading `.opencode.json` for a command: problems are printed as the config module words them
 * (one line each) and become exit code 2; warnings go to stderr. Shared by `-p` and `mcp list`.
 */
import { ConfigError, loadConfig, type LoadedConfig } from '../config/load.js';

/** The loaded config, or the exit code (2) after the problems were printed. */
export function loadConfigForCommand(cwd: string): LoadedConfig | number {
  let loaded: LoadedConfig;
  try {
    loaded = loadConfig({ cwd, env: process.env });
  } catch (err) {
    if (err instanceof ConfigError) {
      for (const line of err.lines) process.stderr.write(`${line}\n`);
    } else {
      // e.g. a file nested too deeply to merge: still a configuration problem, still one line
      process.stderr.write(`opencode: cannot load .opencode.json: ${(err as Error).message}\n`);
    }
    return 2;
  }
  for (const warning of loaded.warnings) process.stderr.write(`warning: ${warning}\n`);
  return loaded;
}
