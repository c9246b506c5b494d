/**
 * The sandbox policy and its launchers as pure functions: the settings' shapes, the policy built for a
 * project (protected files, secret places, core.hooksPath), the exact bubblewrap argument list, the
 * Seatbelt profile text (no Mac runs it here), and the recognition of failures the sandbox caused.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bubblewrapArgs, proxyBridgeArgv } from '../../src/sandbox/bubblewrap.js';
import { describeSandboxFailure } from '../../src/sandbox/failure.js';
import { levelForGrant, sandboxNotice } from '../../src/sandbox/index.js';
import {
  buildPolicy,
  configuredHooksPaths,
  PROTECTED_PROJECT_PATHS,
  SECRET_HOME_PATHS,
  sandboxSettings,
} from '../../src/sandbox/policy.js';
import { seatbeltProfile } from '../../src/sandbox/seatbelt.js';
import type { SandboxPolicy } from '../../src/sandbox/types.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'opencode-sandbox-policy-')));
  dirs.push(dir);
  return dir;
}

describe('sandbox settings', () => {
  it('takes the mode string or the object form, and defaults to auto', () => {
    expect(sandboxSettings(undefined)).toEqual({ mode: 'auto', allowWrite: [], denyRead: [], allowedDomains: [] });
    expect(sandboxSettings('off')).toEqual({ mode: 'off', allowWrite: [], denyRead: [], allowedDomains: [] });
    expect(
      sandboxSettings({
        allowWrite: ['~/.cache'],
        denyRead: ['secrets'],
        network: { allowedDomains: ['*.npmjs.org'] },
      }),
    ).toEqual({
      mode: 'auto',
      allowWrite: ['~/.cache'],
      denyRead: ['secrets'],
      allowedDomains: ['*.npmjs.org'],
    });
  });

  it('maps a grant to a level: only the person raises it, and only their choice removes it', () => {
    expect(levelForGrant(undefined)).toBe('strict');
    expect(levelForGrant({ by: 'rule', outsideSandbox: false })).toBe('strict');
    expect(levelForGrant({ by: 'session', outsideSandbox: true })).toBe('strict');
    expect(levelForGrant({ by: 'unattended', outsideSandbox: false })).toBe('strict');
    expect(levelForGrant({ by: 'person', outsideSandbox: false })).toBe('network');
    expect(levelForGrant({ by: 'person', outsideSandbox: true })).toBe('none');
  });

  it('says at start why commands run without the sandbox, except when it was turned off', () => {
    expect(
      sandboxNotice({ mode: 'auto', active: false, backend: 'none', reason: 'bubblewrap (bwrap) is not installed' }),
    ).toBe(
      'commands run without the OS sandbox (bubblewrap (bwrap) is not installed): only the permission checks protect this run',
    );
    expect(sandboxNotice({ mode: 'required', active: false, backend: 'none', reason: 'x' })).toBe(
      'commands will be refused: "sandbox" is "required" and the sandbox cannot start (x)',
    );
    expect(
      sandboxNotice({ mode: 'off', active: false, backend: 'none', reason: '"sandbox" is "off"' }),
    ).toBeUndefined();
    expect(sandboxNotice({ mode: 'auto', active: true, backend: 'bubblewrap' })).toBeUndefined();
  });
});

describe('sandbox policy', () => {
  it('every table entry has a reason', () => {
    for (const entry of [...PROTECTED_PROJECT_PATHS, ...SECRET_HOME_PATHS])
      expect(entry.reason.length).toBeGreaterThan(10);
  });

  it('protects the files that decide what runs, hides existing secret places, and keeps existing extra writable places', () => {
    const project = tempDir();
    const home = tempDir();
    mkdirSync(join(home, '.ssh'));
    writeFileSync(join(home, '.netrc'), 'machine x password y\n');
    mkdirSync(join(home, '.cache'));
    mkdirSync(join(project, 'private'));
    const policy = buildPolicy(
      {
        mode: 'auto',
        allowWrite: ['~/.cache', '/no/such/dir'],
        denyRead: ['private', '~/missing'],
        allowedDomains: ['example.com'],
      },
      project,
      home,
    );
    expect(policy).toEqual({
      projectDir: project,
      writable: [join(home, '.cache')],
      // and .git itself: the project has none, so one a command makes is removed after it
      protectedPaths: [...PROTECTED_PROJECT_PATHS.map((entry) => join(project, entry.path)), join(project, '.git')],
      secretPaths: [join(home, '.ssh'), join(home, '.netrc'), join(project, 'private')],
      allowedDomains: ['example.com'],
    });
  });

  it("adds the hooks directory the project's git config names in core.hooksPath", () => {
    const project = tempDir();
    mkdirSync(join(project, '.git'));
    writeFileSync(
      join(project, '.git', 'config'),
      '[core]\n\tbare = false\n\thooksPath = tools/hooks\n[remote "origin"]\n\thooksPath = ignored\n',
    );
    expect(configuredHooksPaths(project)).toEqual([join(project, 'tools', 'hooks')]);
    expect(buildPolicy(sandboxSettings('auto'), project, tempDir()).protectedPaths).toContain(
      join(project, 'tools', 'hooks'),
    );
  });
});

const POLICY: SandboxPolicy = {
  projectDir: '/work/p',
  writable: ['/home/u/.cache'],
  protectedPaths: ['/work/p/.opencode.json', '/work/p/.git/hooks'],
  secretPaths: ['/home/u/.netrc'],
  allowedDomains: [],
};

describe('bubblewrap arguments', () => {
  it('mounts everything read-only, then the writable places, then the protected files read-only, then hides secrets; no network at strict level', () => {
    expect(bubblewrapArgs(POLICY, 'strict', { extraWritable: ['/tmp/state'] })).toEqual([
      '--ro-bind',
      '/',
      '/',
      '--dev',
      '/dev',
      '--proc',
      '/proc',
      '--bind',
      '/work/p',
      '/work/p',
      '--bind',
      '/home/u/.cache',
      '/home/u/.cache',
      '--bind',
      '/tmp/state',
      '/tmp/state',
      '--ro-bind-try',
      '/work/p/.opencode.json',
      '/work/p/.opencode.json',
      '--ro-bind-try',
      '/work/p/.git/hooks',
      '/work/p/.git/hooks',
      '--ro-bind',
      '/dev/null',
      '/home/u/.netrc',
      '--die-with-parent',
      '--unshare-pid',
      '--unshare-ipc',
      '--cap-drop',
      'ALL',
      '--unshare-net',
    ]);
  });

  it('keeps the network at the level of a command the person approved', () => {
    expect(bubblewrapArgs(POLICY, 'network')).not.toContain('--unshare-net');
  });

  it('mounts the proxy socket and starts socat before the program when allowed domains are set', () => {
    const args = bubblewrapArgs(POLICY, 'strict', { proxySocket: '/tmp/px/proxy.sock' });
    expect(args.slice(args.indexOf('/home/u/.netrc') + 1, args.indexOf('--die-with-parent'))).toEqual([
      '--bind',
      '/tmp/px/proxy.sock',
      '/tmp/px/proxy.sock',
    ]);
    const argv = proxyBridgeArgv('/usr/bin/socat', '/tmp/px/proxy.sock', ['/bin/bash', '-c', 'echo hi']);
    expect(argv.slice(0, 2)).toEqual(['/bin/bash', '-c']);
    expect(argv[2]).toContain('TCP-LISTEN:3128,bind=127.0.0.1,fork,reuseaddr UNIX-CONNECT:"$1"');
    expect(argv.slice(3)).toEqual(['/usr/bin/socat', '/tmp/px/proxy.sock', '/bin/bash', '-c', 'echo hi']);
  });
});

describe('Seatbelt profile (macOS; checked as text, not run here)', () => {
  it('denies by default, allows writes to the project, denies the protected files and secret places, and no network at strict level', () => {
    expect(seatbeltProfile(POLICY, 'strict', { extraWritable: ['/tmp/state'], proxyPort: 40123 })).toBe(
      [
        '(version 1)',
        '(deny default)',
        '(allow process-exec)',
        '(allow process-fork)',
        '(allow signal (target same-sandbox))',
        '(allow process-info* (target same-sandbox))',
        '(allow sysctl-read)',
        '(allow mach-lookup)',
        '(allow ipc-posix-shm)',
        '(allow file-read*)',
        '(allow file-ioctl)',
        '(allow file-write* (literal "/dev/null") (literal "/dev/zero") (literal "/dev/stdout") (literal "/dev/stderr") (regex #"^/dev/fd/"))',
        '(allow file-write* (subpath "/work/p") (subpath "/home/u/.cache") (subpath "/tmp/state"))',
        '(deny file-write* (subpath "/work/p/.opencode.json") (subpath "/work/p/.git/hooks"))',
        '(deny file-read* (subpath "/home/u/.netrc"))',
        '(allow network* (local unix-socket))',
        '(allow network-outbound (remote ip "localhost:40123"))',
        '',
      ].join('\n'),
    );
  });

  it('allows the network for a command the person approved, and quotes paths', () => {
    const profile = seatbeltProfile({ ...POLICY, projectDir: '/work/a "b"\\c' }, 'network');
    expect(profile).toContain('(allow file-write* (subpath "/work/a \\"b\\"\\\\c")');
    expect(profile.endsWith('(allow network*)\n')).toBe(true);
  });
});

describe('recognising a failure the sandbox caused', () => {
  const hint = "; not the program's fault. Run it in another way, or ask the person to run it outside the sandbox.";
  it.each([
    [
      "touch: cannot touch '/etc/x': Read-only file system",
      'a write outside the project or to a protected file (read-only here)',
    ],
    [
      "ln: failed to create hard link 'h' => '.opencode.json': Invalid cross-device link",
      'a link or move across the read-only mounts',
    ],
    [
      'error: could not write config file .git/config: Device or resource busy',
      'a rename or removal of a protected file or folder (a mount point here)',
    ],
    [
      "mv: cannot move '.git' to '.gitold': Device or resource busy",
      'a rename or removal of a protected file or folder (a mount point here)',
    ],
    ['curl: (6) Could not resolve host: example.com', 'a name lookup (there is no network)'],
    [
      'npm ERR! request to https://registry.npmjs.org/x failed, reason: getaddrinfo EAI_AGAIN registry.npmjs.org',
      'a name lookup (there is no network)',
    ],
    ['ssh: connect to host 10.0.0.1 port 22: Network is unreachable', 'a connection (there is no network)'],
    [
      'refused by the opencode sandbox: the host is not in sandbox.network.allowedDomains',
      'a host that is not in sandbox.network.allowedDomains',
    ],
    ['curl: (56) CONNECT tunnel failed, response 403', 'a host that is not in sandbox.network.allowedDomains'],
  ])('%s', (output, refused) => {
    expect(describeSandboxFailure(output)).toBe(`The sandbox refused ${refused}${hint}`);
  });

  it('says nothing for an ordinary failure', () => {
    expect(describeSandboxFailure('FAIL src/a.test.ts\nexpected 1 to be 2')).toBeUndefined();
    expect(describeSandboxFailure('cat: nope: No such file or directory')).toBeUndefined();
  });
});
