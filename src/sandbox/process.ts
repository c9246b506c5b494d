/**
 * Programs opencode starts on a project's behalf (declarative tools, stdio MCP servers, language servers)
 * run in the same sandbox as a command that ran without the person's approval: writes only in the
 * project and a temp directory of their own (TMPDIR points there), the files that decide what runs
 * read-only, secret places hidden, and no network (DNS included) except the hosts of
 * `sandbox.network.allowedDomains` through the proxy. Their config entry may add writable places
 * (`sandbox.allowWrite`) or turn the network on (`sandbox.network: true`).
 *
 * The program is found on PATH before it is wrapped, so a missing one fails as it does without the
 * sandbox (`spawn … ENOENT`), not as the launcher's exit.
 */
import { existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { findOnPath } from './detect.js';
import { createSandbox } from './index.js';
import { sandboxSettings, type SandboxConfigValue } from './policy.js';
import { restoreProtected, watchProtected } from './protect.js';
import type { Sandbox, SandboxLevel } from './types.js';

/** What one program's config entry lets it do beyond the defaults (`sandbox` of an MCP, LSP or tool entry). */
export interface ProcessSandboxSettings {
  /** the network on (level `network`) */
  network?: boolean;
  /** more writable places: absolute, `~/…`, or relative to the project */
  allowWrite?: readonly string[];
}

/** A program ready for `child_process.spawn`, and what to do once it has exited. */
export interface SandboxedProcess {
  file: string;
  args: string[];
  /** to add to the program's environment, over everything else (TMPDIR, proxy variables) */
  env: Record<string, string>;
  /** the program's own temp directory, when it runs in the sandbox */
  tempDir?: string;
  /** Call once the program has exited (more calls do nothing): removes its temp directory and protected files it created; returns those files. */
  release(): string[];
}

/** The prefix of the programs' temp directories under the system temp directory. */
export const PROCESS_TEMP_PREFIX = 'opencode-process-';

/**
 * Wraps `argv` to run in `sandbox` (or as it is without one, or when the sandbox is off or cannot
 * start in mode `auto`). `level` is what the person's approval allows (`levelForGrant`); a program that
 * runs without asking is `strict`. `settings.network` raises `strict` to `network`.
 * `pathVariable` is the PATH the program is looked up in (its environment's).
 * @throws SandboxUnavailableError when the sandbox is `required` and cannot start
 * @throws an `ENOENT` error (as `spawn` gives) when the program is not found on PATH
 */
export async function sandboxProcess(
  sandbox: Sandbox | undefined,
  argv: readonly string[],
  options: {
    level?: SandboxLevel;
    settings?: ProcessSandboxSettings;
    pathVariable?: string;
    home?: string;
    /** variables of the hidden kinds (`env.ts`) the program keeps: those its config entry sets, `shell.passEnv` */
    keepEnv?: readonly string[];
  } = {},
): Promise<SandboxedProcess> {
  const [program, ...rest] = argv;
  if (!program) throw new Error('no program to run');
  // sandboxed or not, an opencode the program starts knows it was not started by the person (`nested.ts`)
  const plain: SandboxedProcess = { file: program, args: rest, env: { OPENCODE_SANDBOXED: '1' }, release: () => [] };
  let level: SandboxLevel = options.level ?? 'strict';
  if (level === 'strict' && options.settings?.network) level = 'network';
  if (!sandbox || level === 'none') return plain;
  const status = await sandbox.status();
  if (!status.active) {
    await sandbox.wrap(argv, { level }); // throws in mode `required`; otherwise the program runs as it is
    return plain;
  }
  const found = program.includes('/') ? program : findOnPath(program, options.pathVariable ?? process.env.PATH ?? '');
  if (!found) throw notFound(program);
  const tempDir = realpathSync(mkdtempSync(join(tmpdir(), PROCESS_TEMP_PREFIX)));
  const writable = [
    tempDir,
    ...extraWritable(options.settings?.allowWrite ?? [], sandbox.policy.projectDir, options.home ?? homedir()),
  ];
  let wrapped;
  try {
    // a session of its own: no controlling terminal to type into (TIOCSTI)
    wrapped = await sandbox.wrap([found, ...rest], { level, writable, newSession: true, keepEnv: options.keepEnv });
  } catch (err) {
    rmSync(tempDir, { recursive: true, force: true });
    throw err;
  }
  // the network on is not the person's approval: protected entries the program creates are removed as at `strict`
  const watch = watchProtected(
    sandbox.policy.projectDir,
    options.level !== 'network' && level === 'network' ? sandbox.policy.protectedPaths : [],
  );
  let released = false;
  return {
    file: wrapped.file,
    args: wrapped.args,
    env: { OPENCODE_SANDBOXED: '1', ...wrapped.env, TMPDIR: tempDir },
    tempDir,
    release() {
      if (released) return [];
      released = true;
      rmSync(tempDir, { recursive: true, force: true });
      return [...wrapped.afterExit(), ...restoreProtected(sandbox.policy.projectDir, watch)];
    },
  };
}

/**
 * The project's sandbox for a command that starts MCP servers without the whole app (`mcp list`,
 * `tools`, `stats --mcp`), built as the app builds it from the config's `sandbox`. Close it after use.
 */
export function projectSandbox(value: SandboxConfigValue | undefined, projectDir: string): Sandbox {
  return createSandbox({ settings: sandboxSettings(value), projectDir, home: process.env.HOME || homedir() });
}

/** `allowWrite` entries as absolute paths; only existing ones (a mount needs its target). */
function extraWritable(paths: readonly string[], projectDir: string, home: string): string[] {
  return paths
    .map((p) =>
      p === '~' ? home : p.startsWith('~/') ? join(home, p.slice(2)) : isAbsolute(p) ? p : resolve(projectDir, p),
    )
    .filter((p) => existsSync(p));
}

function notFound(program: string): NodeJS.ErrnoException {
  const err: NodeJS.ErrnoException = new Error(`spawn ${program} ENOENT`);
  err.code = 'ENOENT';
  err.errno = -2;
  err.syscall = `spawn ${program}`;
  err.path = program;
  return err;
}
