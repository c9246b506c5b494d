/**
 * The OS sandbox for one project: {@link createSandbox} turns the settings into a policy, detects the
 * launcher once, and wraps programs for `child_process.spawn`. The mount lists are computed once per
 * policy; per command only the level and the caller's own writable directories change.
 */
import { realpathSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { basename, dirname, join, sep } from 'node:path';
import { bubblewrapArgs, proxyBridgeArgv, proxyEnv, SECCOMP_FD, seccompLaunch, SOCKET_PLACES } from './bubblewrap.js';
import { detectSandbox, type SandboxSupport } from './detect.js';
import { sandboxHiddenEnvNames } from './env.js';
import { outerSandboxEnv, outerSandboxLevel } from './nested.js';
import { buildPolicy } from './policy.js';
import { isRealDirectory, restoreProtected, watchProtected } from './protect.js';
import { startDomainProxy, type DomainProxy } from './proxy.js';
import { seatbeltProfile } from './seatbelt.js';
import { EMPTY_FILE_NAME, seccompFilterFile } from './seccomp.js';
import {
  SandboxUnavailableError,
  type Sandbox,
  type SandboxPolicy,
  type SandboxSettings,
  type SandboxStatus,
  type WrapOptions,
  type WrappedCommand,
} from './types.js';

export * from './types.js';
export {
  buildPolicy,
  sandboxSettings,
  PROTECTED_PROJECT_PATHS,
  SECRET_HOME_PATHS,
  type SandboxConfigValue,
} from './policy.js';
export { describeSandboxFailure } from './failure.js';
export { detectSandbox } from './detect.js';
export { sandboxNotice } from './notice.js';

/** Options of {@link createSandbox}. */
export interface CreateSandboxOptions {
  settings: SandboxSettings;
  projectDir: string;
  home: string;
  /** detection result to use instead of probing (tests of a machine without the launcher) */
  support?: Promise<SandboxSupport>;
}

/** Creates the sandbox of a project. Nothing starts until the first {@link Sandbox.wrap} or {@link Sandbox.status}. */
export function createSandbox(options: CreateSandboxOptions): Sandbox {
  return new OsSandbox(options);
}

/** The level a grant maps to; no grant (a caller that only knows "allowed") counts as not approved by the person. */
export function levelForGrant(grant: { by: string; outsideSandbox: boolean } | void | undefined): WrapOptions['level'] {
  if (!grant || grant.by !== 'person') return 'strict';
  return grant.outsideSandbox ? 'none' : 'network';
}

class OsSandbox implements Sandbox {
  readonly policy: SandboxPolicy;
  private readonly settings: SandboxSettings;
  private support: Promise<SandboxSupport> | undefined;
  private proxy: Promise<DomainProxy> | undefined;

  constructor(options: CreateSandboxOptions) {
    this.settings = options.settings;
    this.policy = buildPolicy(options.settings, options.projectDir, options.home);
    this.support = options.support;
  }

  private detect(): Promise<SandboxSupport> {
    this.support ??=
      this.settings.mode === 'off'
        ? Promise.resolve({ backend: 'none', reason: '"sandbox" is "off"' })
        : detectSandbox();
    return this.support;
  }

  async status(): Promise<SandboxStatus> {
    const support = await this.detect();
    // no sandbox can start inside another one: an opencode run by a sandboxed command keeps the outer one
    if (support.backend === 'none' && this.settings.mode !== 'off' && outerSandboxLevel()) {
      return { mode: this.settings.mode, active: true, backend: 'none', inherited: true };
    }
    const reason = support.reason ?? this.proxyProblem(support);
    return {
      mode: this.settings.mode,
      active: support.backend !== 'none' && !reason,
      backend: reason ? 'none' : support.backend,
      reason,
    };
  }

  /** Linux needs socat inside the sandbox to reach the proxy. */
  private proxyProblem(support: SandboxSupport): string | undefined {
    if (support.backend === 'bubblewrap' && this.policy.allowedDomains.length > 0 && !support.socat) {
      return 'sandbox.network.allowedDomains needs socat, which is not installed';
    }
    return undefined;
  }

  async wrap(argv: readonly string[], options: WrapOptions): Promise<WrappedCommand> {
    const [program, ...rest] = argv;
    if (!program) throw new Error('wrap needs a program to run');
    const plain: WrappedCommand = { file: program, args: rest, env: {}, afterExit: () => [] };
    if (options.level === 'none') return plain;
    const status = await this.status();
    if (!status.active) {
      if (this.settings.mode === 'required') throw new SandboxUnavailableError(status.reason ?? 'unknown');
      return plain;
    }
    if (status.inherited) return { ...plain, env: outerSandboxEnv(outerSandboxLevel()!) };
    const support = await this.detect();
    const useProxy = options.level === 'strict' && this.policy.allowedDomains.length > 0;
    const proxy = useProxy ? await this.startProxy(support.backend === 'bubblewrap' ? 'socket' : 'port') : undefined;
    // protected names that don't exist can't be mounted over; one a strict command creates is removed after it
    // (a dangling link too; never through a link out of the project: protect.ts)
    const watch = watchProtected(this.policy.projectDir, options.level === 'strict' ? this.policy.protectedPaths : []);
    const afterExit = () => restoreProtected(this.policy.projectDir, watch);
    const unsetEnv = sandboxHiddenEnvNames(Object.keys(process.env), options.keepEnv);
    if (support.backend === 'seatbelt') {
      const profile = seatbeltProfile(this.policy, options.level, {
        extraWritable: options.writable,
        proxyPort: proxy?.port,
      });
      const env = proxy?.port ? proxyEnvFor(`http://127.0.0.1:${proxy.port}`) : {};
      // sandbox-exec passes its environment on: env(1) removes the withheld variables first
      const args = [...unsetEnv.flatMap((name) => ['-u', name]), support.launcher!, '-p', profile, ...argv];
      return {
        file: '/usr/bin/env',
        args,
        env: { ...env, ...outerSandboxEnv(options.level) },
        unsetEnv,
        launcher: basename(support.launcher!),
        afterExit: () => [],
      };
    }
    // socat inside reaches the proxy through a Unix socket, which the filter would refuse: the places
    // where the host's sockets live are hidden instead
    const writable = [this.policy.projectDir, ...this.policy.writable, ...(options.writable ?? [])];
    const filterFile = seccompFilterFor(writable);
    const filter = proxy?.socketPath ? undefined : filterFile;
    const hidden = filter ? [] : SOCKET_PLACES.map((place) => place.path).filter(isRealDirectory);
    const args = bubblewrapArgs(this.policy, options.level, {
      extraWritable: options.writable,
      proxySocket: proxy?.socketPath,
      ...(filter ? { seccompFd: SECCOMP_FD } : { hidden }),
      newSession: options.newSession,
      unsetEnv,
      ...(filterFile ? { emptyFile: join(dirname(filterFile), EMPTY_FILE_NAME) } : {}),
    });
    const inner = proxy?.socketPath ? proxyBridgeArgv(support.socat!, proxy.socketPath, argv) : [...argv];
    const env = { ...(proxy ? proxyEnv() : {}), ...outerSandboxEnv(options.level) };
    const launch = filter
      ? seccompLaunch(support.launcher!, filter, [...args, '--', ...inner])
      : { file: support.launcher!, args: [...args, '--', ...inner] };
    return { ...launch, env, unsetEnv, launcher: basename(support.launcher!), afterExit };
  }

  private startProxy(on: 'socket' | 'port'): Promise<DomainProxy> {
    this.proxy ??= startDomainProxy(this.policy.allowedDomains, on);
    return this.proxy;
  }

  async close(): Promise<void> {
    const proxy = this.proxy;
    this.proxy = undefined;
    if (proxy) await (await proxy).close();
  }
}

/**
 * The seccomp program's file, in a directory no sandboxed program can write (none of `writable` is it
 * or holds it): the system temp directory, else the home's cache. Undefined when every candidate is
 * writable in the sandbox (the socket places are hidden instead).
 */
function seccompFilterFor(writable: readonly string[]): string | undefined {
  const home = process.env.HOME || homedir();
  for (const parent of [tmpdir(), join(home, '.cache'), home]) {
    let real: string;
    try {
      real = realpathSync(parent);
    } catch {
      continue;
    }
    if (writable.some((dir) => real === dir || real.startsWith(dir.endsWith(sep) ? dir : dir + sep))) continue;
    try {
      return seccompFilterFile(real);
    } catch {
      continue; // not writable by opencode either
    }
  }
  return undefined;
}

function proxyEnvFor(url: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of ['HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY']) {
    env[name] = url;
    env[name.toLowerCase()] = url;
  }
  return { ...env, NO_PROXY: '', no_proxy: '' };
}
