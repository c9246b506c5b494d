/**
 * The `opencode sessions` command and its sub-commands, as commander sees them. Only
 * argument parsing: each sub-command's code (sessions.ts; `undo` is the undo feature's,
 * sessions-undo.ts) is imported when it runs, so `--help` and `--version` stay light.
 */
import { Option, type Command } from 'commander';
import { registerUndoCommand } from './sessions-undo.js';

/** Global options as the sessions sub-commands read them. */
interface GlobalOptions {
  cwd?: string;
}

/** Adds `sessions list|show|export|import|delete|undo` to `program` (inheriting its exit and output settings). */
export function registerSessionsCommand(program: Command): void {
  const sessions = program
    .command('sessions')
    .description("this project's sessions: list, show, export, import, delete, undo");

  sessions
    .command('list')
    .description('list the sessions: id, title, last update, messages, cost (sub-agent sessions under theirs)')
    .option('--json', 'print JSON (times in UTC)')
    .action(async (_opts: unknown, command: Command) => {
      const { runSessionsList } = await import('./sessions.js');
      process.exitCode = await runSessionsList(command.optsWithGlobals<GlobalOptions & { json?: boolean }>());
    });

  sessions
    .command('show')
    .description('print a session as text, tool calls summarised')
    .argument('<id>', 'session id or a unique prefix of it')
    .action(async (id: string, _opts: unknown, command: Command) => {
      const { runSessionsShow } = await import('./sessions.js');
      process.exitCode = await runSessionsShow({ ...command.optsWithGlobals<GlobalOptions>(), id });
    });

  sessions
    .command('export')
    .description('print a session as markdown (to read or paste into an issue) or as JSON (for import)')
    .argument('<id>', 'session id or a unique prefix of it')
    .addOption(new Option('--format <format>', 'md or json').choices(['md', 'json']).default('md'))
    .action(async (id: string, _opts: unknown, command: Command) => {
      const { runSessionsExport } = await import('./sessions.js');
      process.exitCode = await runSessionsExport({
        ...command.optsWithGlobals<GlobalOptions & { format: 'md' | 'json' }>(),
        id,
      });
    });

  sessions
    .command('import')
    .description('add a session from a JSON export ("-" reads stdin); a session already here is never overwritten')
    .argument('<file>', 'the file `opencode sessions export ID --format json` wrote')
    .action(async (file: string, _opts: unknown, command: Command) => {
      const { runSessionsImport } = await import('./sessions.js');
      process.exitCode = await runSessionsImport({ ...command.optsWithGlobals<GlobalOptions>(), file });
    });

  sessions
    .command('delete')
    .description('delete a session with its messages, file history and sub-agent sessions')
    .argument('<id>', 'session id or a unique prefix of it')
    .option(
      '--force',
      'delete it even while a running TUI or -p has it open (that process then fails on its next write)',
    )
    .action(async (id: string, _opts: unknown, command: Command) => {
      const { runSessionsDelete } = await import('./sessions.js');
      process.exitCode = await runSessionsDelete({
        ...command.optsWithGlobals<GlobalOptions & { force?: boolean }>(),
        id,
      });
    });

  registerUndoCommand(sessions);
}
