/**
 * What the sandbox keeps of the host beyond files and the network: Unix sockets (a listener this test
 * starts in its temp directory stands for an ssh-agent, a tmux server, docker.sock), the variables
 * that lead to them or hold cloud tokens, the terminal (a project process without a controlling
 * terminal cannot type into it with TIOCSTI) and opencode's own configuration with its provider keys.
 * Each harm is tried for real with the sandbox on (it does not happen) and with `"sandbox": "off"`
 * (it does: the control). The seccomp program itself is checked by running its decoded bytes.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { PermissionGrant } from '../../src/permission/types.js';
import { detectSandbox } from '../../src/sandbox/detect.js';
import { createSandbox, sandboxSettings, type Sandbox, type SandboxConfigValue } from '../../src/sandbox/index.js';
import { xdgSecretPaths } from '../../src/sandbox/policy.js';
import { sandboxProcess } from '../../src/sandbox/process.js';
import {
  decodeFilter,
  encodeFilter,
  SECCOMP_RET_ALLOW,
  SECCOMP_RET_EPERM,
  unixSocketFilter,
  type BpfInstruction,
} from '../../src/sandbox/seccomp.js';
import { bashTool } from '../../src/tools/bash.js';
import { createShell } from '../../src/tools/shell.js';
import type { ShellRunner } from '../../src/tools/tool.js';
import { secretPlaceOf } from '../../src/tools/secret-read.js';
import { viewTool } from '../../src/tools/view.js';
import { runTool, toolContext } from '../support/tool-context.js';

const support = await detectSandbox();
const CAN_RUN = support.backend === 'bubblewrap';
const SKIPPED = CAN_RUN ? '' : ` (skipped: the sandbox cannot start here: ${support.reason})`;
const PYTHON =
  process.platform === 'linux'
    ? execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim()
    : 'python3';

/** Runs a classic-BPF seccomp program on one `seccomp_data` (nr, arch, args[0]), as the kernel would. */
function runFilter(program: readonly BpfInstruction[], data: { nr: number; arch: number; arg0?: number }): number {
  const words: Record<number, number> = { 0: data.nr >>> 0, 4: data.arch >>> 0, 16: (data.arg0 ?? 0) >>> 0 };
  let acc = 0;
  for (let pc = 0; pc < program.length; pc++) {
    const ins = program[pc]!;
    if (ins.code === 0x20) acc = words[ins.k] ?? 0;
    else if (ins.code === 0x15) pc += acc === ins.k ? ins.jt : ins.jf;
    else if (ins.code === 0x35) pc += acc >= ins.k ? ins.jt : ins.jf;
    else if (ins.code === 0x06) return ins.k;
    else throw new Error(`unexpected instruction ${ins.code}`);
  }
  throw new Error('fell off the end of the program');
}

describe('the seccomp program', () => {
  const bytes = encodeFilter(unixSocketFilter());
  const program = decodeFilter(bytes);
  const X86_64 = 0xc000003e;
  const AARCH64 = 0xc00000b7;
  const I386 = 0x40000003;

  it('is 8 little-endian bytes per instruction and decodes back to itself; it starts by loading the architecture', () => {
    expect(bytes.length % 8).toBe(0);
    expect(program).toEqual(unixSocketFilter());
    expect([...bytes.subarray(0, 8)]).toEqual([0x20, 0, 0, 0, 4, 0, 0, 0]);
    expect([...bytes.subarray(8, 16)]).toEqual([0x15, 0, program[1]!.jt, 0, 0x3e, 0x00, 0x00, 0xc0]);
  });

  it('x86_64: socket(AF_UNIX) fails with EPERM; other families, other calls and socketpair pass; x32 calls and io_uring_setup fail', () => {
    expect(runFilter(program, { arch: X86_64, nr: 41, arg0: 1 })).toBe(SECCOMP_RET_EPERM);
    expect(runFilter(program, { arch: X86_64, nr: 41, arg0: 2 })).toBe(SECCOMP_RET_ALLOW);
    expect(runFilter(program, { arch: X86_64, nr: 41, arg0: 10 })).toBe(SECCOMP_RET_ALLOW);
    expect(runFilter(program, { arch: X86_64, nr: 53, arg0: 1 })).toBe(SECCOMP_RET_ALLOW); // socketpair
    expect(runFilter(program, { arch: X86_64, nr: 0, arg0: 1 })).toBe(SECCOMP_RET_ALLOW); // read
    expect(runFilter(program, { arch: X86_64, nr: 0x40000000 + 41, arg0: 1 })).toBe(SECCOMP_RET_EPERM);
    expect(runFilter(program, { arch: X86_64, nr: 0x40000000, arg0: 0 })).toBe(SECCOMP_RET_EPERM);
    expect(runFilter(program, { arch: X86_64, nr: 425 })).toBe(SECCOMP_RET_EPERM);
  });

  it('aarch64 and i386 by their own numbers; another architecture is let through', () => {
    expect(runFilter(program, { arch: AARCH64, nr: 198, arg0: 1 })).toBe(SECCOMP_RET_EPERM);
    expect(runFilter(program, { arch: AARCH64, nr: 198, arg0: 2 })).toBe(SECCOMP_RET_ALLOW);
    expect(runFilter(program, { arch: AARCH64, nr: 41, arg0: 1 })).toBe(SECCOMP_RET_ALLOW);
    expect(runFilter(program, { arch: I386, nr: 359, arg0: 1 })).toBe(SECCOMP_RET_EPERM);
    expect(runFilter(program, { arch: I386, nr: 359, arg0: 2 })).toBe(SECCOMP_RET_ALLOW);
    expect(runFilter(program, { arch: I386, nr: 102, arg0: 1 })).toBe(SECCOMP_RET_EPERM);
    expect(runFilter(program, { arch: 0xc00000f3, nr: 198, arg0: 1 })).toBe(SECCOMP_RET_ALLOW); // riscv64
  });
});

const cleanup: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0)) await step();
});

let sequence = 0;
/** A temp project and HOME, and a Unix socket listener beside them that records what reaches it. */
async function makeWorld() {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'opencode-sandbox-host-')));
  const world = {
    root,
    project: join(root, 'project'),
    home: join(root, 'home'),
    socket: join(root, 'host.sock'),
    token: `t${process.pid}x${++sequence}`,
    received: new Set<string>(),
  };
  mkdirSync(world.project);
  mkdirSync(world.home);
  const server: Server = createServer((socket) => {
    socket.on('data', (data) => world.received.add(data.toString().trim()));
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(world.socket, resolve));
  cleanup.push(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(root, { recursive: true, force: true });
  });
  return world;
}
type World = Awaited<ReturnType<typeof makeWorld>>;

function makeSandbox(world: World, value: SandboxConfigValue): Sandbox {
  const sandbox = createSandbox({ settings: sandboxSettings(value), projectDir: world.project, home: world.home });
  cleanup.push(() => sandbox.close());
  return sandbox;
}

/** A bash tool call through a session shell of `world`, allowed as `grant` says (a rule by default). */
async function runBash(
  shell: ShellRunner,
  world: World,
  command: string,
  grant: PermissionGrant = { by: 'rule', outsideSandbox: false },
) {
  const ctx = { ...toolContext(world.project), shell: () => shell, askPermission: async () => grant };
  return runTool(bashTool, { command }, ctx);
}

function makeShell(world: World, sandbox: Sandbox, passEnv?: string[]): ShellRunner {
  const shell = createShell({
    cwd: world.project,
    sandbox,
    env: { HOME: world.home },
    ...(passEnv ? { passEnv } : {}),
  });
  cleanup.push(() => shell.close());
  return shell;
}

/** A connection to the test's listener carrying the world's token. */
const connectCommand = (w: World) =>
  `${PYTHON} -c "import socket; s=socket.socket(socket.AF_UNIX); s.connect('${w.socket}'); s.sendall(b'${w.token}'); s.close()"`;

/** Waits until the listener has read what a connection sent (the control's side), or briefly. */
async function settle(world: World): Promise<void> {
  for (let i = 0; i < 20 && !world.received.has(world.token); i++)
    await new Promise((resolve) => setTimeout(resolve, 10));
}

describe.skipIf(!CAN_RUN)(`Unix sockets of the host${SKIPPED}`, () => {
  it('a command run without the person cannot connect to a listener outside the sandbox', async () => {
    const world = await makeWorld();
    const result = await runBash(makeShell(world, makeSandbox(world, 'auto')), world, connectCommand(world));
    await settle(world);
    expect(world.received.has(world.token)).toBe(false);
    expect(result.output).toContain('PermissionError: [Errno 1] Operation not permitted');
  });

  it('the control: with "sandbox": "off" the same command reaches it', async () => {
    const world = await makeWorld();
    const result = await runBash(makeShell(world, makeSandbox(world, 'off')), world, connectCommand(world));
    await settle(world);
    expect(result.isError).toBe(false);
    expect(world.received.has(world.token)).toBe(true);
  });

  it('a command the person approved (network on) cannot either', async () => {
    const world = await makeWorld();
    await runBash(makeShell(world, makeSandbox(world, 'auto')), world, connectCommand(world), {
      by: 'person',
      outsideSandbox: false,
    });
    await settle(world);
    expect(world.received.has(world.token)).toBe(false);
  });

  it.skipIf(!support.socat)(
    'with allowedDomains (the proxy needs a Unix socket) the places of the host sockets are hidden: no connection either',
    async () => {
      const world = await makeWorld();
      const shell = makeShell(world, makeSandbox(world, { network: { allowedDomains: ['example.com'] } }));
      const result = await runBash(shell, world, `${connectCommand(world)}; ls /run | wc -l`);
      await settle(world);
      expect(world.received.has(world.token)).toBe(false);
      // stdout (/run is empty) comes before stderr
      expect(result.output).toMatch(/^0\n[^]*FileNotFoundError/);
    },
  );

  it('an MCP server, language server or tool process cannot connect either', async () => {
    const world = await makeWorld();
    const wrapped = await sandboxProcess(makeSandbox(world, 'auto'), ['sh', '-c', connectCommand(world)]);
    const ran = spawnSync(wrapped.file, wrapped.args, {
      cwd: world.project,
      env: { ...process.env, ...wrapped.env },
      encoding: 'utf8',
    });
    wrapped.release();
    await settle(world);
    expect(world.received.has(world.token)).toBe(false);
    expect(ran.stderr).toContain('PermissionError');
  });
});

const HOST_VARIABLES = {
  SSH_AUTH_SOCK: '/tmp/agent.sock',
  TMUX: '/tmp/tmux-0/default,1,0',
  GITHUB_TOKEN: 'ghp_fakefakefakefake',
  AWS_SECRET_ACCESS_KEY: 'aws-fake-secret',
};
const PRINT_VARIABLES = Object.keys(HOST_VARIABLES)
  .map((name) => `\${${name}-unset}`)
  .join(' ');

/** Sets the variables in opencode's environment for the test, as a person's terminal would. */
function withHostVariables(): void {
  const saved = Object.fromEntries(Object.keys(HOST_VARIABLES).map((name) => [name, process.env[name]]));
  Object.assign(process.env, HOST_VARIABLES);
  cleanup.push(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });
}

describe.skipIf(!CAN_RUN)(`variables that lead to the host or hold cloud tokens${SKIPPED}`, () => {
  it('are not in a sandboxed command; shell.passEnv keeps one; a command run outside the sandbox gets them back', async () => {
    withHostVariables();
    const world = await makeWorld();
    const shell = makeShell(world, makeSandbox(world, 'auto'), ['GITHUB_TOKEN']);
    expect((await runBash(shell, world, `echo ${PRINT_VARIABLES}`)).output).toBe(
      'unset unset ghp_fakefakefakefake unset',
    );
    expect(
      (await runBash(shell, world, `echo ${PRINT_VARIABLES}`, { by: 'person', outsideSandbox: false })).output,
    ).toBe('unset unset ghp_fakefakefakefake unset');
    expect(
      (await runBash(shell, world, `echo ${PRINT_VARIABLES}`, { by: 'person', outsideSandbox: true })).output,
    ).toBe(Object.values(HOST_VARIABLES).join(' '));
  });

  it('the control: with "sandbox": "off" a command has them all', async () => {
    withHostVariables();
    const world = await makeWorld();
    const shell = makeShell(world, makeSandbox(world, 'off'));
    expect((await runBash(shell, world, `echo ${PRINT_VARIABLES}`)).output).toBe(
      Object.values(HOST_VARIABLES).join(' '),
    );
  });

  it('a project process has none of them, except those its own config entry sets', async () => {
    withHostVariables();
    const world = await makeWorld();
    const sandbox = makeSandbox(world, 'auto');
    const print = ['sh', '-c', `echo ${PRINT_VARIABLES}`];
    const plain = await sandboxProcess(sandbox, print);
    const kept = await sandboxProcess(sandbox, print, { keepEnv: ['AWS_SECRET_ACCESS_KEY'] });
    const run = (w: typeof plain) =>
      spawnSync(w.file, w.args, { env: { ...process.env, ...w.env }, encoding: 'utf8' }).stdout.trim();
    expect(run(plain)).toBe('unset unset unset unset');
    expect(run(kept)).toBe('unset unset unset aws-fake-secret');
    plain.release();
    kept.release();
  });
});

/**
 * Runs `file args` as the session leader of a new pseudo-terminal (python's pty.spawn), so that it has
 * a controlling terminal as an MCP server started from the TUI would; returns what it printed.
 */
function underTerminal(file: string, args: readonly string[], env: Record<string, string>): string {
  const ran = spawnSync(PYTHON, ['-c', 'import pty, sys; pty.spawn(sys.argv[1:])', file, ...args], {
    env: { ...process.env, ...env },
    input: '',
    encoding: 'utf8',
  });
  return ran.stdout;
}

/** Prints the controlling terminal number and whether TIOCSTI on /dev/tty worked. */
const TERMINAL_PROBE = [
  PYTHON,
  '-c',
  [
    'import fcntl, os, termios',
    'tty = int(open("/proc/self/stat").read().rsplit(")", 1)[1].split()[4])',
    'try:',
    '    fd = os.open("/dev/tty", os.O_RDWR); fcntl.ioctl(fd, termios.TIOCSTI, b" "); sti = "typed"',
    'except OSError as e:',
    '    sti = "refused " + (os.strerror(e.errno))',
    'print("tty", "none" if tty == 0 else "some", sti)',
  ].join('\n'),
];

describe.skipIf(!CAN_RUN)(`the terminal${SKIPPED}`, () => {
  it('a project process (MCP, LSP, tool) started from a terminal has no controlling terminal in the sandbox: TIOCSTI cannot type', async () => {
    const world = await makeWorld();
    const wrapped = await sandboxProcess(makeSandbox(world, 'auto'), TERMINAL_PROBE);
    const printed = underTerminal(wrapped.file, wrapped.args, wrapped.env);
    wrapped.release();
    expect(printed).toContain('tty none refused No such device or address');
  });

  it('the control: with "sandbox": "off" the same process has the terminal', async () => {
    const world = await makeWorld();
    const wrapped = await sandboxProcess(makeSandbox(world, 'off'), TERMINAL_PROBE);
    const printed = underTerminal(wrapped.file, wrapped.args, wrapped.env);
    expect(printed).toMatch(/tty some (typed|refused)/);
  });
});

const KEY = 'sk-ant-FAKE-KEY-1234567890';
const reversed = [...KEY].reverse().join('');

describe.skipIf(!CAN_RUN)(`opencode's own configuration${SKIPPED}`, () => {
  function writeUserConfig(world: World): void {
    writeFileSync(join(world.home, '.opencode.json'), JSON.stringify({ providers: { anthropic: { apiKey: KEY } } }));
    mkdirSync(join(world.home, '.config', 'opencode', 'themes'), { recursive: true });
    writeFileSync(
      join(world.home, '.config', 'opencode', '.opencode.json'),
      JSON.stringify({ providers: { openai: { apiKey: KEY } } }),
    );
    writeFileSync(join(world.home, '.config', 'opencode', 'themes', 'mine.json'), '{"theme":"mine"}');
  }
  const READ_ALL =
    'rev ~/.opencode.json; rev ~/.config/opencode/.opencode.json; cat ~/.config/opencode/themes/mine.json';

  it('reads empty from a command in the sandbox (rev too, which no redaction catches); the themes stay readable', async () => {
    const world = await makeWorld();
    writeUserConfig(world);
    const result = await runBash(makeShell(world, makeSandbox(world, 'auto')), world, READ_ALL);
    expect(result.output).toBe('{"theme":"mine"}');
  });

  it('the control: with "sandbox": "off" the command prints the key, reversed', async () => {
    const world = await makeWorld();
    writeUserConfig(world);
    const result = await runBash(makeShell(world, makeSandbox(world, 'off')), world, READ_ALL);
    expect(result.output).toContain(reversed);
  });

  it('view asks before reading it, and not before a theme file beside it', async () => {
    const world = await makeWorld();
    writeUserConfig(world);
    const savedHome = process.env.HOME;
    process.env.HOME = world.home;
    cleanup.push(() => {
      process.env.HOME = savedHome;
    });
    const asked: string[] = [];
    const ctx = {
      ...toolContext(world.project),
      askPermission: async (input: { description: string }) => void asked.push(input.description),
    };
    const config = await runTool(viewTool, { file_path: join(world.home, '.opencode.json') }, ctx);
    expect(asked).toEqual([
      `view reads ${join(world.home, '.opencode.json')}, which holds opencode's own configuration: provider API keys`,
    ]);
    expect(config.isError).toBe(false);
    asked.length = 0;
    await runTool(viewTool, { file_path: join(world.home, '.config', 'opencode', 'themes', 'mine.json') }, ctx);
    expect(asked).toEqual([]);
  });
});

describe("opencode's configuration under $XDG_CONFIG_HOME", () => {
  it('is a secret place when XDG_CONFIG_HOME is an absolute path, for the sandbox and the file tools alike', () => {
    expect(xdgSecretPaths({ XDG_CONFIG_HOME: '/srv/cfg' })).toEqual([
      { path: '/srv/cfg/opencode/.opencode.json', reason: "opencode's own configuration: provider API keys" },
    ]);
    expect(xdgSecretPaths({ XDG_CONFIG_HOME: 'relative/cfg' })).toEqual([]);
    expect(xdgSecretPaths({})).toEqual([]);
    const saved = process.env.XDG_CONFIG_HOME;
    process.env.XDG_CONFIG_HOME = '/srv/cfg';
    try {
      expect(secretPlaceOf('/srv/cfg/opencode/.opencode.json', { home: '/nonexistent-home' })?.reason).toBe(
        "opencode's own configuration: provider API keys",
      );
      expect(secretPlaceOf('/srv/cfg/opencode/themes/mine.json', { home: '/nonexistent-home' })).toBeUndefined();
    } finally {
      if (saved === undefined) delete process.env.XDG_CONFIG_HOME;
      else process.env.XDG_CONFIG_HOME = saved;
    }
  });
});
