/**
 * The parts of `--help` that commander does not write itself: what the top-level help says after the
 * options (the provider variables, the config files, the README), and which of the global options
 * each sub-command reads.
 */
import { existsSync, realpathSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Command } from 'commander';

/**
 * The global options each sub-command reads, by its path (`sessions list`). A sub-command ignores the
 * others, so its help names only these. Global options go before or after the command name
 * (`opencode -c DIR stats` and `opencode stats -c DIR` are the same).
 */
const GLOBAL_OPTIONS_READ: Record<string, readonly string[]> = {
  // prints the schema of this build: no project, no config
  schema: [],
  // connects to the project's servers
  'mcp list': ['-c, --cwd', '--trust'],
  // reads the project's files and config
  'lsp list': ['-c, --cwd'],
  // the editor's sessions run the agent: its model, profile and logging
  acp: ['-c, --cwd', '-m, --model', '--profile', '-d, --debug', '--trust'],
  // the folder defaults to --cwd
  trust: ['-c, --cwd'],
  tools: ['-c, --cwd', '--trust'],
  keybindings: ['-c, --cwd'],
  // the project's theme folder, and the config's theme for the ✓
  themes: ['-c, --cwd'],
  stats: ['-c, --cwd', '--trust'],
  // --profile marks which one would be used
  profiles: ['-c, --cwd', '--profile'],
  'sessions list': ['-c, --cwd'],
  'sessions show': ['-c, --cwd'],
  'sessions export': ['-c, --cwd'],
  'sessions import': ['-c, --cwd'],
  'sessions delete': ['-c, --cwd'],
  'sessions undo': ['-c, --cwd'],
};

/**
 * Adds to every sub-command's help (recursively) the line naming the global options it reads, from
 * {@link GLOBAL_OPTIONS_READ}. A command with sub-commands of its own (`sessions`) gets none: its
 * sub-commands say it. A command without a row gets none either (test/cli/cli-help.test.ts checks
 * that every command has one): a missing help line must not stop the command from running.
 */
export function addGlobalOptionsHelp(program: Command): void {
  const visit = (command: Command, path: string[]): void => {
    for (const sub of command.commands) {
      const subPath = [...path, sub.name()];
      if (sub.commands.length > 0) {
        visit(sub, subPath);
        continue;
      }
      const key = subPath.join(' ');
      const read = GLOBAL_OPTIONS_READ[key];
      if (read !== undefined) sub.addHelpText('after', `\n${globalOptionsLine(read)}`);
    }
  };
  visit(program, []);
}

/** The help line of {@link addGlobalOptionsHelp}, e.g. "Global options it reads: -c, --cwd <dir>". */
function globalOptionsLine(read: readonly string[]): string {
  if (read.length === 0) return 'Global options: none apply.';
  return `Global options it reads: ${read.join('; ')} (see opencode --help).`;
}

/**
 * The text after the top-level options: where the key comes from, which files configure opencode and
 * where the README is (`readme`: its path, when known).
 */
export function topLevelHelpAfter(readme: string | undefined): string {
  return [
    '',
    'Environment:',
    '  ANTHROPIC_API_KEY, OPENAI_API_KEY, GROQ_API_KEY, OPENROUTER_API_KEY, XAI_API_KEY',
    '                                the key of a provider (one is enough)',
    '  ANTHROPIC_BASE_URL, OPENAI_BASE_URL',
    '                                the provider API at another address (a proxy)',
    '  LOCAL_ENDPOINT                an OpenAI-compatible server (Ollama, LM Studio,',
    '                                llama.cpp), e.g. http://localhost:11434',
    '  OPENCODE_PROFILE              the provider profile when --profile is not given',
    '',
    'Configuration (JSONC; the project file is merged over the first of the others):',
    '  <project>/.opencode.json, $HOME/.opencode.json,',
    '  $XDG_CONFIG_HOME/opencode/.opencode.json, ~/.config/opencode/.opencode.json',
    '',
    `More: opencode help <command>; the README${readme === undefined ? ' of the opencode checkout' : `: ${readme}`}`,
  ].join('\n');
}

/**
 * The README beside the running `bin/opencode` (followed through `npm link`'s symbolic link), or
 * undefined when the entry script is not known or has no README beside it.
 */
export function readmePath(entryScript: string | undefined): string | undefined {
  if (entryScript === undefined) return undefined;
  try {
    const readme = resolve(dirname(realpathSync(entryScript)), '..', 'README.md');
    return existsSync(readme) ? readme : undefined;
  } catch {
    return undefined;
  }
}
