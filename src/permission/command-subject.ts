/**
 * A shell command as the permission policy sees it: the shell analysis
 * (`shell-analysis.ts`) turned into a {@link CommandSubject}: each simple command with the text rules
 * match, whether it is read-only on its own, and the scope "allow for session" would grant for it.
 */
import { gitInvocation } from './git-code.js';
import { bannedByIdentity, linkTargetName } from './program-identity.js';
import { markHardLinkedWrites } from './hard-links.js';
import { nestedRepository, nestedRepositoryReason } from './nested-repository.js';
import { analyzeCommand, sessionScope, type ShellAnalysis, type SimpleCommand } from './shell-analysis.js';
import type { CommandPart, CommandSubject } from './types.js';

/** The analysis (for the banned check) and the subject (for the policy) of one command line. */
export interface AnalysedCommand {
  analysis: ShellAnalysis;
  subject: CommandSubject;
}

/**
 * Analyses `command` as run in `cwd` (the shell's current directory, which relative write targets are
 * resolved against) with `home` for `~`, and builds the permission subject. Never throws: a failing
 * analysis is an unanalysable command, which asks.
 *
 * Also recognises a banned program by what it is (`program-identity.ts`): a link to curl or a copy of
 * it under another name found through `pathEnv` (default: this process's `PATH`) sets `analysis.banned`.
 *
 * `projectDir`: the project, when `cwd` (the shell's directory) may be elsewhere; then a program that
 * may write anywhere where it runs (`make`) is a write to `cwd`, which the policy judges.
 */
export async function analyseForPermission(
  command: string,
  options: { cwd: string; home: string; pathEnv?: string; projectDir?: string },
): Promise<AnalysedCommand> {
  let analysis: ShellAnalysis;
  try {
    analysis = analyzeCommand(command, {
      cwd: options.cwd,
      home: options.home,
      ...(options.projectDir !== undefined && { projectDir: options.projectDir }),
    });
  } catch (err) {
    analysis = {
      commands: [],
      writes: [],
      readOnly: false,
      unanalysable: `the analysis failed: ${(err as Error).message}`,
    };
  }
  const subject: CommandSubject = {
    kind: 'command',
    command,
    parts: analysis.commands.map((c) => {
      const part: CommandPart = {
        text: c.text,
        wrappers: c.wrappers,
        readOnly: c.readOnly ?? analysis.readOnly,
        scope: sessionScope(c),
      };
      const resolved = resolvedText(c);
      if (resolved !== c.text) part.resolvedText = resolved;
      if (c.opaque !== undefined) part.opaque = c.opaque;
      return part;
    }),
    // a file in the project may be another name of one outside it
    writes: markHardLinkedWrites(
      analysis.writes.map((w) => ({
        target: w.target,
        path: w.path,
        via: w.via,
        ...(w.command !== undefined && { part: w.command }),
        ...(w.redirect !== undefined && { redirect: w.redirect }),
        ...(w.outsideProject && { outsideProject: true }),
      })),
    ),
    readOnly: analysis.readOnly,
  };
  if (analysis.unanalysable !== undefined) subject.unanalysable = analysis.unanalysable;
  if (analysis.alwaysAsks?.length) subject.alwaysAsks = [...analysis.alwaysAsks];
  // the shell stayed elsewhere after an earlier `cd /tmp`: `make` or `npm install` writes there
  if (
    options.projectDir !== undefined &&
    options.cwd !== options.projectDir &&
    analysis.startDirectoryWriters?.length
  ) {
    subject.writes.push({
      target: `${options.cwd} (where ${analysis.startDirectoryWriters.join(', ')} runs)`,
      path: options.cwd,
      via: 'working directory',
    });
  }
  // git in a repository nested in the project reads that repository's configuration, which can run programs
  const projectDir = options.projectDir ?? options.cwd;
  for (const program of analysis.programs ?? []) {
    const part = subject.parts[program.command];
    const command = analysis.commands[program.command];
    if (program.name !== 'git' || program.dir === undefined || !part || !command || part.opaque !== undefined) continue;
    const repository = nestedRepository(command.args, program.dir, projectDir, options.home);
    if (repository) part.opaque = nestedRepositoryReason(part.text, repository, projectDir);
  }
  const pathEnv = options.pathEnv ?? process.env.PATH;
  // a link judged by what it runs: `./del x`, del → /bin/rm, meets `"rm *": "deny"`
  for (const program of analysis.programs ?? []) {
    const target = linkTargetName(program, { cwd: options.cwd, pathEnv });
    const part = subject.parts[program.command];
    const command = analysis.commands[program.command];
    if (target && part && command) part.linkText = [target, ...command.args].join(' ');
  }
  if (!analysis.banned) {
    for (const program of analysis.programs ?? []) {
      const banned = bannedByIdentity(program, { cwd: options.cwd, pathEnv });
      if (banned) {
        analysis.banned = { name: banned.name, reason: `${program.invokedAs} is ${banned.name}: ${banned.reason}` };
        break;
      }
    }
  }
  return { analysis, subject };
}

/**
 * The command as the program receives it: quotes resolved (`git 'pu'sh` is `git push`) and, for git,
 * the global options before the subcommand dropped (`git -C . --no-pager push` is `git push`), so
 * that a rule on `git push*` matches every spelling.
 */
function resolvedText(command: SimpleCommand): string {
  let args = command.args;
  if (command.name === 'git')
    args = args.slice(gitInvocation(args.map((value) => ({ value, literal: true }))).subcommandIndex);
  return [command.name, ...args].join(' ');
}
