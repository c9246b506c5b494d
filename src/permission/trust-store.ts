/**
 * Which projects the person trusted to run their own code (plugins, tool files, MCP and language
 * servers the project names): a list of real paths in `trusted-projects.json` of the user's config
 * folder (`$XDG_CONFIG_HOME/opencode/`, else `~/.config/opencode/`). It lives outside every project,
 * so a repository cannot trust itself (nor can a command run inside the project's sandbox, which may
 * not write there), and it is keyed by the project's real path, so a link to a trusted project is that
 * project.
 *
 * File shape: `{ "projects": ["/home/me/src/app", …] }`. Written whole or not at all.
 */
import { mkdirSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

/** The trust file's name in the user's opencode config folder. */
export const TRUST_FILE_NAME = 'trusted-projects.json';

/** `env` supplies HOME and XDG_CONFIG_HOME. */
export type TrustEnv = Readonly<Record<string, string | undefined>>;

/** The trust file: `$XDG_CONFIG_HOME/opencode/trusted-projects.json`, else `~/.config/opencode/trusted-projects.json`. */
export function trustFilePath(env: TrustEnv): string {
  const configHome = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config');
  return join(configHome, 'opencode', TRUST_FILE_NAME);
}

/** The key of a project: its real path (links followed); the resolved path when it does not exist. */
export function projectKey(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return resolve(dir);
  }
}

/**
 * The trusted projects' real paths, in the order they were trusted. A missing file is none.
 * @throws Error naming the file when it exists but cannot be read or is not of the shape above
 */
export function readTrustedProjects(env: TrustEnv): string[] {
  const file = trustFilePath(env);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new Error(`${file}: cannot read: ${(err as Error).message}`, { cause: err });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new Error(
      `${file}: not valid JSON (${(err as Error).message}); fix or delete it, then trust the project again`,
      {
        cause: err,
      },
    );
  }
  const projects = (value as { projects?: unknown } | null)?.projects;
  if (!Array.isArray(projects) || !projects.every((p) => typeof p === 'string')) {
    throw new Error(
      `${file}: expected {"projects": ["/absolute/path", …]}; fix or delete it, then trust the project again`,
    );
  }
  return projects as string[];
}

/** Whether the person trusted `dir` (by its real path). An unreadable trust file trusts nothing. */
export function isProjectTrusted(dir: string, env: TrustEnv): boolean {
  try {
    return readTrustedProjects(env).includes(projectKey(dir));
  } catch {
    return false;
  }
}

/**
 * Adds `dir` (its real path) to the trusted projects; returns that path.
 * @throws Error when the trust file cannot be read or written
 */
export function trustProject(dir: string, env: TrustEnv): string {
  const key = projectKey(dir);
  const projects = readTrustedProjects(env);
  if (!projects.includes(key)) writeTrustedProjects(env, [...projects, key]);
  return key;
}

/**
 * Removes `dir` (its real path, or the path as listed) from the trusted projects.
 * @returns whether it was listed
 * @throws Error when the trust file cannot be read or written
 */
export function revokeProject(dir: string, env: TrustEnv): boolean {
  const keys = new Set([projectKey(dir), resolve(dir)]);
  const projects = readTrustedProjects(env);
  const kept = projects.filter((p) => !keys.has(p));
  if (kept.length === projects.length) return false;
  writeTrustedProjects(env, kept);
  return true;
}

function writeTrustedProjects(env: TrustEnv, projects: string[]): void {
  const file = trustFilePath(env);
  mkdirSync(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, `${JSON.stringify({ projects }, null, 2)}\n`);
    renameSync(temp, file);
  } catch (err) {
    rmSync(temp, { force: true });
    throw new Error(`${file}: cannot write: ${(err as Error).message}`, { cause: err });
  }
}
