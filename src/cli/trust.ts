/**
 * `opencode trust [dir]`, `--list`, `--revoke`: the projects whose own code (plugins, tool files,
 * MCP and language servers their `.opencode.json` names) opencode runs, kept in the user's config
 * folder (`src/permission/trust-store.ts`). Refused inside another opencode's command: a project the
 * model works in must not trust itself.
 */
import { resolve } from 'node:path';
import { isNestedRun, NESTED_RUN_ENV } from '../permission/nested-run.js';
import { readTrustedProjects, revokeProject, trustFilePath, trustProject } from '../permission/trust-store.js';

/** One line naming what the project runs from its next start (its config as it is now). */
async function whatRuns(project: string, env: NodeJS.ProcessEnv): Promise<string> {
  const [{ tryLoadConfig }, { describeProjectCode, holdProjectCode }] = await Promise.all([
    import('../config/load.js'),
    import('../app/project-code.js'),
  ]);
  const loaded = tryLoadConfig(project, env);
  if ('problems' in loaded)
    return `its .opencode.json has problems (${loaded.problems.length}): opencode says which at the next start`;
  const { items } = holdProjectCode(loaded, project, env);
  return items.length === 0
    ? 'it defines nothing of its own to run now'
    : `from the next start it runs: ${describeProjectCode(items)}`;
}

/** Options of the command; `dir` defaults to `--cwd`, then the current directory. */
export interface TrustCommandOptions {
  cwd?: string;
  list?: boolean;
  revoke?: boolean;
}

/** Runs the command; returns the exit code (0 done, 1 the trust file cannot be read or written, 2 refused). */
export async function runTrust(
  dir: string | undefined,
  opts: TrustCommandOptions,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const fail = (code: number, line: string) => {
    process.stderr.write(`opencode: ${line}\n`);
    return code;
  };
  try {
    if (opts.list) {
      if (dir !== undefined || opts.revoke) return fail(2, 'trust --list takes no folder and no --revoke');
      const projects = readTrustedProjects(env);
      if (projects.length === 0) process.stdout.write(`no trusted projects (${trustFilePath(env)})\n`);
      for (const project of projects) process.stdout.write(`${project}\n`);
      return 0;
    }
    const project = resolve(opts.cwd ?? process.cwd(), dir ?? '.');
    if (opts.revoke) {
      const removed = revokeProject(project, env);
      process.stdout.write(removed ? `no longer trusted: ${project}\n` : `${project} was not trusted\n`);
      return 0;
    }
    if (isNestedRun(env)) {
      return fail(
        2,
        `refused: this opencode was started by another opencode's command (${NESTED_RUN_ENV}=1); only you can trust a project, from your own terminal`,
      );
    }
    const { existsSync, statSync } = await import('node:fs');
    if (!existsSync(project) || !statSync(project).isDirectory()) return fail(2, `${project}: no such directory`);
    const key = trustProject(project, env);
    process.stdout.write(`trusted: ${key} (listed in ${trustFilePath(env)})\n`);
    process.stdout.write(`${await whatRuns(key, env)}\n`);
    return 0;
  } catch (err) {
    return fail(1, (err as Error).message);
  }
}
