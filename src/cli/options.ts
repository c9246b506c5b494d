/**
 * The opencode command's global options as commander parses them (cli/main.ts), for the
 * sub-commands that take them.
 */

/** Parsed global options. */
export interface CliOptions {
  prompt?: string;
  outputFormat: 'text' | 'json' | 'stream-json';
  /** `--continue`: the project's most recent session */
  continue?: boolean;
  /** `--session ID`: this session (id or unique prefix) */
  session?: string;
  quiet?: boolean;
  cwd?: string;
  model?: string;
  /** `--profile NAME`: the provider profile; else OPENCODE_PROFILE */
  profile?: string;
  debug?: boolean;
  /** -p approves what would ask (the original); false with --no-auto-approve */
  autoApprove?: boolean;
  /** `--trust`: the project's own code runs this time, trusted or not (refused inside another opencode's command) */
  trust?: boolean;
}
