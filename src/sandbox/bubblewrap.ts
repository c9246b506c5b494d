/**
 * The bubblewrap (`bwrap`, Linux) arguments for a {@link SandboxPolicy}. Pure: tests check the list.
 *
 * Mount order matters (later mounts cover earlier ones): the whole file system read-only, then the
 * writable places, then the protected files inside them read-only again, then the secret places
 * hidden. Options are those of bubblewrap 0.8 (`bwrap --help`, man bwrap(1)).
 */
import { dirname } from 'node:path';
import { isDirectoryPath } from './policy.js';
import { mountPath, renameGuards } from './protect.js';
import type { SandboxLevel, SandboxPolicy } from './types.js';

/** The descriptor the launcher wrapper opens the seccomp program on ({@link seccompLaunch}). */
export const SECCOMP_FD = 9;

/**
 * `bwrap` started through `/bin/sh`, which opens the seccomp program on {@link SECCOMP_FD} and execs
 * `bwrap` with it: every spawn site (the MCP SDK's included) can start it with its own stdio.
 */
export function seccompLaunch(
  launcher: string,
  filterFile: string,
  args: readonly string[],
): { file: string; args: string[] } {
  const quoted = `'${filterFile.replaceAll("'", `'\\''`)}'`;
  return { file: '/bin/sh', args: ['-c', `exec "$0" "$@" ${SECCOMP_FD}<${quoted}`, launcher, ...args] };
}

/** The port socat listens on inside the network namespace when the allowed-domains proxy is used. */
export const PROXY_PORT_INSIDE = 3128;

/** The namespace and process options, one reason each. */
const ISOLATION_ARGS: ReadonlyArray<{ args: string[]; reason: string }> = [
  { args: ['--die-with-parent'], reason: 'everything in the sandbox ends when opencode dies' },
  { args: ['--unshare-pid'], reason: "a new pid namespace: opencode's process and its environment are not visible" },
  { args: ['--unshare-ipc'], reason: "no access to other processes' shared memory and queues" },
  {
    args: ['--cap-drop', 'ALL'],
    reason: 'as root the command would keep CAP_SYS_ADMIN and could remount the file system',
  },
];

/**
 * Where the host's Unix sockets live, hidden (an empty directory) when the seccomp filter cannot be
 * used because socat inside must reach the allowed-domains proxy through one. Sockets elsewhere (in
 * the home directory outside the secret places, in the project) stay reachable then.
 */
export const SOCKET_PLACES: ReadonlyArray<{ path: string; reason: string }> = [
  { path: '/tmp', reason: 'tmux, screen, X11 (/tmp/.X11-unix), ssh-agent and listeners anyone starts' },
  { path: '/var/tmp', reason: 'the same, for programs that keep them across reboots' },
  {
    path: '/run',
    reason: 'docker.sock, the system D-Bus, /run/user/<uid> (session bus, gpg-agent, Wayland), resolved, nscd',
  },
  { path: '/var/run', reason: 'the same where it is not a link to /run' },
];

/** The file-system part: read-only root, fresh /dev and /proc, writable places, protected files, hidden secrets. */
export function mountArgs(
  policy: SandboxPolicy,
  extraWritable: readonly string[] = [],
  hidden: readonly string[] = [],
  emptyFile = '/dev/null',
): string[] {
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc'];
  // before the writable places, which may lie inside (the shell's state directory under /tmp); made
  // read-only by bubblewrapArgs once every mount point inside is made
  for (const dir of hidden) args.push('--tmpfs', dir);
  // a caller's own directory that holds its writable ones stays readable (the shell's state directory,
  // with the input file the shell reads)
  const within = (path: string, dir: string) => path.startsWith(dir.endsWith('/') ? dir : `${dir}/`);
  for (const parent of new Set(extraWritable.map((dir) => dirname(dir)))) {
    if (hidden.some((dir) => within(parent, dir))) args.push('--ro-bind', parent, parent);
  }
  for (const dir of [policy.projectDir, ...policy.writable, ...extraWritable]) args.push('--bind', dir, dir);
  // mount points can't be renamed (EBUSY): `mv .git .gitold` can't take the protected files out of their places
  for (const dir of renameGuards(policy.projectDir, policy.protectedPaths)) args.push('--bind', dir, dir);
  // at the real place: bwrap resolves a link in the target against its own setup root, so an absolute link fails
  for (const path of new Set(policy.protectedPaths.map(mountPath))) args.push('--ro-bind-try', path, path);
  for (const path of policy.secretPaths) {
    // a directory becomes an empty read-only one; a file reads as empty
    if (isDirectoryPath(path)) args.push('--tmpfs', path, '--remount-ro', path);
    else args.push('--ro-bind', emptyFile, path);
  }
  return args;
}

/**
 * The whole `bwrap` argument list before the program: mounts, isolation and, at `strict` level, a
 * network namespace of its own (loopback only: no DNS, no route out).
 * `proxySocket`: the allowed-domains proxy's Unix socket, mounted so that socat inside can reach it.
 */
export function bubblewrapArgs(
  policy: SandboxPolicy,
  level: Exclude<SandboxLevel, 'none'>,
  options: {
    extraWritable?: readonly string[];
    proxySocket?: string;
    cwd?: string;
    /** the descriptor the seccomp program is read from (`seccomp.ts`) */
    seccompFd?: number;
    /** places hidden by an empty directory ({@link SOCKET_PLACES} when there is no seccomp filter) */
    hidden?: readonly string[];
    newSession?: boolean;
    unsetEnv?: readonly string[];
    /** an empty regular file no sandboxed program can write, mounted over secret files (`/dev/null` can't be opened there) */
    emptyFile?: string;
  } = {},
): string[] {
  const args = mountArgs(policy, options.extraWritable, options.hidden, options.emptyFile);
  if (level === 'strict' && options.proxySocket) args.push('--bind', options.proxySocket, options.proxySocket);
  for (const dir of options.hidden ?? []) args.push('--remount-ro', dir);
  for (const entry of ISOLATION_ARGS) args.push(...entry.args);
  if (options.seccompFd !== undefined) args.push('--seccomp', String(options.seccompFd));
  if (options.newSession) args.push('--new-session');
  for (const name of options.unsetEnv ?? []) args.push('--unsetenv', name);
  if (level === 'strict') args.push('--unshare-net');
  if (options.cwd) args.push('--chdir', options.cwd);
  return args;
}

/**
 * The program to run inside when the proxy is used: socat bridges a loopback port of the sandbox's
 * network namespace to the proxy's Unix socket, then the shell replaces this one.
 */
export function proxyBridgeArgv(socatPath: string, proxySocket: string, argv: readonly string[]): string[] {
  const bridge =
    `"$0" TCP-LISTEN:${PROXY_PORT_INSIDE},bind=127.0.0.1,fork,reuseaddr UNIX-CONNECT:"$1" </dev/null >/dev/null 2>&1 & ` +
    // wait until socat listens, so the command's first connection is not refused
    'i=0; while [ $i -lt 100 ] && ! (exec 9<>/dev/tcp/127.0.0.1/' +
    String(PROXY_PORT_INSIDE) +
    ') 2>/dev/null; do i=$((i+1)); sleep 0.01; done; shift; exec "$@"';
  return ['/bin/bash', '-c', bridge, socatPath, proxySocket, ...argv];
}

/** The proxy variables set inside the sandbox: every common spelling, so curl, git, pip and npm use it. */
export function proxyEnv(): Record<string, string> {
  const url = `http://127.0.0.1:${PROXY_PORT_INSIDE}`;
  return {
    HTTP_PROXY: url,
    HTTPS_PROXY: url,
    ALL_PROXY: url,
    http_proxy: url,
    https_proxy: url,
    all_proxy: url,
    NO_PROXY: '',
    no_proxy: '',
  };
}
