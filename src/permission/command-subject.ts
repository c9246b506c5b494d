/**
 * A shell command as the permission policy sees it (issue #4 §2): the shell analysis
 * (`shell-analysis.ts`) turned into a {@link CommandSubject}: each simple command with the text rules
 * match, whether it is read-only on its own, and the scope "allow for session" would grant for it.
 */
import { analyzeCommand, sessionScope, type ShellAnalysis } from './shell-analysis.js';
import type { CommandSubject } from './types.js';

/** The analysis (for the banned check) and the subject (for the policy) of one command line. */
export interface AnalysedCommand {
  analysis: ShellAnalysis;
  subject: CommandSubject;
}

/**
 * Analyses `command` as run in `cwd` (the shell's current directory, which relative write targets are
 * resolved against) with `home` for `~`, and builds the permission subject. Never throws: a failing
 * analysis is an unanalysable command, which asks.
 */
export async function analyseForPermission(command: string, options: { cwd: string; home: string }): Promise<AnalysedCommand> {
  let analysis: ShellAnalysis;
  try {
    // awaited so that an asynchronous analysis (a WebAssembly parser) needs no change here
    analysis = await analyzeCommand(command, options);
  } catch (err) {
    analysis = { commands: [], writes: [], readOnly: false, unanalysable: `the analysis failed: ${(err as Error).message}` };
  }
  const subject: CommandSubject = {
    kind: 'command',
    command,
    parts: analysis.commands.map((c) => ({
      text: c.text,
      wrappers: c.wrappers,
      readOnly: c.readOnly ?? analysis.readOnly,
      scope: sessionScope(c),
    })),
    writes: analysis.writes.map((w) => ({ target: w.target, path: w.path, via: w.via })),
    readOnly: analysis.readOnly,
  };
  if (analysis.unanalysable !== undefined) subject.unanalysable = analysis.unanalysable;
  return { analysis, subject };
}
