/**
 * The `opencode` command: argument parsing only. Every sub-command's code is imported lazily so
 * `--version` and `--help` load nothing heavy. The flags are the original's, plus ours.
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { VERSION } from '../version.js';
import { addGlobalOptionsHelp, readmePath, topLevelHelpAfter } from './help-text.js';
import { registerSessionsCommand } from './sessions-command.js';
import { startupMark } from '../startup-trace.js';
import type { CliOptions } from './options.js';

startupMark('cli.js evaluated');

/** Exit codes: 0 ok, 1 a failed run, 2 bad usage or config, 130 interrupted (SIGINT; 143 SIGTERM: app/signal-exit.ts). */
export const EXIT = { ok: 0, failed: 1, usage: 2, interrupted: 130 } as const;

const program = new Command('opencode')
  .description('A terminal coding agent. Run it in a project folder; use -p for one prompt without the TUI.')
  .version(VERSION, '-v, --version', 'print the version')
  .helpOption('-h, --help', 'show this help')
  .option('-p, --prompt <text>', 'run one prompt non-interactively and print the answer ("-" reads stdin)')
  .addOption(
    new Option(
      '-f, --output-format <format>',
      'output format of -p (stream-json: one JSON object per line as the run goes)',
    )
      .choices(['text', 'json', 'stream-json'])
      .default('text'),
  )
  .option('--continue', "continue the project's most recent session (with -p, or in the TUI)")
  .option('--session <id>', 'continue this session (an id or a unique prefix; `opencode sessions list` shows them)')
  .option('-q, --quiet', 'no spinner on stderr')
  .option('-c, --cwd <dir>', 'project directory to work in (default: the current directory)')
  .option('-m, --model <provider/model>', 'the coder model, e.g. anthropic/claude-sonnet-5-5', parseModel)
  .option(
    '--profile <name>',
    'the provider profile of .opencode.json to use (default: $OPENCODE_PROFILE); `opencode profiles` lists them',
  )
  .option('-d, --debug', 'debug logging: to stderr with -p, on the logs page (ctrl+l) in the TUI')
  .option(
    '--no-auto-approve',
    'with -p: refuse calls that would ask permission instead of approving them (deny rules hold either way)',
  )
  .option(
    '--trust',
    "run this project's own code this time (its plugins, tool files, MCP and language servers); without it an untrusted project's code is skipped (`opencode trust` trusts it for good)",
  )
  .helpCommand('help [command]', 'show the help of opencode or of a command (as --help does)')
  .addHelpText('after', () => topLevelHelpAfter(readmePath(process.argv[1])))
  .showHelpAfterError('(run opencode --help for usage)')
  .configureOutput({ outputError: (str, write) => write(str) })
  .exitOverride((err) => {
    process.exit(err.exitCode === 0 ? 0 : EXIT.usage);
  })
  .argument('[words...]')
  .usage('[options] [command]')
  .action(async (words: string[], opts: CliOptions) => {
    if (words.length > 0) {
      const text = words.join(' ');
      process.stderr.write(`opencode: unexpected argument "${text}". To run a prompt: opencode -p "${text}"\n`);
      process.exitCode = EXIT.usage;
      return;
    }
    if (opts.continue && opts.session !== undefined) {
      process.stderr.write('opencode: --continue and --session both name a session; give one of them\n');
      process.exitCode = EXIT.usage;
      return;
    }
    if (opts.prompt !== undefined) {
      const { runPrompt } = await import('./run-prompt.js');
      process.exitCode = await runPrompt({ ...opts, prompt: opts.prompt });
      return;
    }
    const { runInteractive } = await import('./interactive.js');
    process.exitCode = await runInteractive(opts);
  });

program
  .command('schema')
  .description(
    "print the JSON Schema of .opencode.json (for editor completion), with a theme file's under $defs.themeFile",
  )
  .option('--theme', 'only the schema of a theme file (.opencode/themes/NAME.json), for its "$schema"')
  .action(async (opts: { theme?: boolean }) => {
    const schema = (await import('./schema-command.js')).schemaDocument(opts.theme === true);
    process.stdout.write(`${JSON.stringify(schema, null, 2)}\n`);
  });

program
  .command('mcp')
  .description('MCP servers of .opencode.json')
  .command('list')
  .description('connect to each MCP server and print its status and tools')
  .action(async (_opts: unknown, command: Command) => {
    const { runMcpList } = await import('./mcp.js');
    process.exitCode = await runMcpList(command.optsWithGlobals<CliOptions>());
  });

program
  .command('lsp')
  .description('language servers of this project')
  .command('list')
  .description('print which language servers would start for this project, and why (none is started)')
  .action(async (_opts: unknown, command: Command) => {
    const { runLspList } = await import('./lsp.js');
    process.exitCode = await runLspList(command.optsWithGlobals<CliOptions>());
  });

program
  .command('acp')
  .description(
    'serve the Agent Client Protocol on stdin/stdout: the agent behind your editor (Zed, JetBrains, Neovim, VS Code)',
  )
  .action(async (_opts: unknown, command: Command) => {
    const { runAcp } = await import('../acp/run.js');
    process.exitCode = await runAcp(command.optsWithGlobals<CliOptions>());
  });

program
  .command('trust')
  .description(
    'trust a project (default: this one) to run its own code: its plugins, tool files, MCP and language servers',
  )
  .argument('[dir]', 'the project folder')
  .option('--list', 'list the trusted projects')
  .option('--revoke', 'stop trusting the project')
  .action(async (dir: string | undefined, _opts: unknown, command: Command) => {
    const { runTrust } = await import('./trust.js');
    process.exitCode = await runTrust(
      dir,
      command.optsWithGlobals<CliOptions & { list?: boolean; revoke?: boolean }>(),
    );
  });

program
  .command('tools')
  .description('list the tools offered to the model: source, file, overrides; custom tools that failed to load')
  .option('--json', 'print JSON')
  .action(async (_opts: unknown, command: Command) => {
    const { runToolsList } = await import('./tools.js');
    process.exitCode = await runToolsList(command.optsWithGlobals<CliOptions & { json?: boolean }>());
  });

program
  .command('themes')
  .description(
    "list the TUI themes: built-in, yours ($XDG_CONFIG_HOME/opencode/themes/ first when that is set, then ~/.config/opencode/themes/) and the project's (.opencode/themes/), with their files; broken or misnamed theme files on stderr",
  )
  .option('--keys', 'print the colour keys a theme file may set')
  .action(async (_opts: unknown, command: Command) => {
    const { runThemes } = await import('./themes.js');
    process.exitCode = await runThemes(command.optsWithGlobals<CliOptions & { keys?: boolean }>());
  });

program
  .command('keybindings')
  .description('print the TUI key bindings: action, default keys, the keys your .opencode.json gives it')
  .action(async (_opts: unknown, command: Command) => {
    const { runKeybindings } = await import('./keybindings.js');
    process.exitCode = await runKeybindings(command.optsWithGlobals<CliOptions>());
  });

program
  .command('stats')
  .description('per-tool figures of the tool-call log: calls, errors, durations, and tools offered but not called')
  .option('--days <n>', 'the period, in days back from now (default 30)', parseDaysOption)
  .option('--json', 'print JSON')
  .option('--mcp', 'also connect to the MCP servers, so their unused tools are listed')
  .action(async (_opts: unknown, command: Command) => {
    const { runStats } = await import('./stats.js');
    process.exitCode = await runStats(
      command.optsWithGlobals<CliOptions & { days?: number; json?: boolean; mcp?: boolean }>(),
    );
  });

program
  .command('profiles')
  .description(
    'list the provider profiles of .opencode.json: models, base URLs, and whether each key is set (never the key)',
  )
  .option('--json', 'print JSON')
  .action(async (_opts: unknown, command: Command) => {
    const { runProfiles } = await import('./profiles.js');
    process.exitCode = await runProfiles(command.optsWithGlobals<CliOptions & { json?: boolean }>());
  });

// list, show, export, import, delete, undo; the sub-commands load their code lazily
registerSessionsCommand(program);

addGlobalOptionsHelp(program);

// -f shapes what -p prints; anywhere else it would be ignored without a word
program.hook('preAction', (_program, action) => {
  if (program.getOptionValueSource('outputFormat') !== 'cli') return;
  if (action === program && program.opts<CliOptions>().prompt !== undefined) return;
  const format = program.opts<CliOptions>().outputFormat;
  process.stderr.write(
    `opencode: -f/--output-format needs -p: it sets how one prompt's answer is printed, e.g. opencode -p "your request" -f ${format}\n`,
  );
  process.exit(EXIT.usage);
});

// every command works in --cwd: one that is not a directory is refused before any runs (a sub-command
// given a missing folder would otherwise answer for a project that is not there, e.g. `stats`: no calls)
program.hook('preAction', (_program, action) => {
  const { cwd } = action.optsWithGlobals<CliOptions>();
  if (cwd === undefined || isDirectory(cwd)) return;
  process.stderr.write(`opencode: --cwd ${resolve(cwd)}: no such directory\n`);
  process.exit(EXIT.usage);
});

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function parseDaysOption(value: string): number {
  if (!/^\d+$/.test(value.trim()) || Number(value) < 1 || Number(value) > 36_500) {
    throw new InvalidArgumentError('expected a whole number of days from 1 to 36500, e.g. --days 7');
  }
  return Number(value);
}

function parseModel(value: string): string {
  if (!/^[^/\s]+\/\S+$/.test(value)) {
    throw new InvalidArgumentError('expected provider/model, e.g. anthropic/claude-sonnet-5-5 or openai/gpt-4.1');
  }
  return value;
}

// not a top-level await: the command is built as CommonJS (scripts/build.mjs); a failure still ends the process
void program.parseAsync(process.argv);
