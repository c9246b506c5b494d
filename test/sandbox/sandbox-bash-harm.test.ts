/**
 * The bash tool's commands in the OS sandbox (Linux, bubblewrap), tried for real: each case runs a
 * harmful command through the bash tool and the session shell, in a temp project with its own HOME,
 * as a command allowed by a rule (not by the person). It asserts the harm did not happen with the
 * sandbox on, and did happen with `"sandbox": "off"`: the control that proves the case can fail.
 * Network cases use only loopback listeners this test starts.
 */
import { execFileSync } from 'node:child_process';
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PermissionGrant } from '../../src/permission/types.js';
import { detectSandbox } from '../../src/sandbox/detect.js';
import { createSandbox, sandboxSettings, type Sandbox, type SandboxMode } from '../../src/sandbox/index.js';
import { bashTool } from '../../src/tools/bash.js';
import { createShell } from '../../src/tools/shell.js';
import type { ShellRunner, ToolResult } from '../../src/tools/tool.js';
import { runTool, toolContext } from '../support/tool-context.js';

const support = await detectSandbox();
const CAN_RUN = support.backend === 'bubblewrap';
/** said in the titles when the cases are skipped */
const SKIPPED = CAN_RUN ? '' : ` (skipped: the sandbox cannot start here: ${support.reason})`;
/** the real interpreter (a pyenv shim would look for its root under the test's HOME) */
const PYTHON =
  process.platform === 'linux'
    ? execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim()
    : 'python3';
const NODE = process.execPath;

/** One temp project with its own HOME and a directory outside both. */
interface World {
  project: string;
  home: string;
  outside: string;
  /** a value unique to this run, sent over the network cases so the listener can tell who reached it */
  token: string;
}

/** What reached the loopback listeners, by token. */
const received = { tcp: new Set<string>(), udp: new Set<string>(), dns: new Set<string>() };
let tcpServer: Server;
let udpSocket: UdpSocket;
let dnsSocket: UdpSocket;
const ports = { tcp: 0, udp: 0, dns: 0 };

beforeAll(async () => {
  tcpServer = createServer((socket) => {
    socket.on('data', (data) => received.tcp.add(data.toString().trim()));
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => tcpServer.listen(0, '127.0.0.1', resolve));
  ports.tcp = (tcpServer.address() as { port: number }).port;
  udpSocket = createSocket('udp4', (msg) => received.udp.add(msg.toString().trim()));
  await new Promise<void>((resolve) => udpSocket.bind(0, '127.0.0.1', resolve));
  ports.udp = udpSocket.address().port;
  // a DNS server's side: the question's first label is what the lookup carried out
  dnsSocket = createSocket('udp4', (msg) => {
    const length = msg[12] ?? 0;
    received.dns.add(msg.subarray(13, 13 + length).toString());
  });
  await new Promise<void>((resolve) => dnsSocket.bind(0, '127.0.0.1', resolve));
  ports.dns = dnsSocket.address().port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => tcpServer.close(() => resolve()));
  udpSocket.close();
  dnsSocket.close();
});

const cleanup: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0)) await step();
});

let sequence = 0;
function makeWorld(): World {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'opencode-sandbox-harm-')));
  cleanup.push(() => rmSync(root, { recursive: true, force: true }));
  const world = {
    project: join(root, 'project'),
    home: join(root, 'home'),
    outside: join(root, 'outside'),
    token: `t${process.pid}x${++sequence}`,
  };
  for (const dir of [world.project, world.home, world.outside, join(world.home, '.ssh')])
    mkdirSync(dir, { recursive: true });
  writeFileSync(join(world.home, '.ssh', 'id_rsa'), 'FAKE-PRIVATE-KEY\n');
  execFileSync('git', ['init', '-q'], { cwd: world.project });
  writeFileSync(join(world.project, '.opencode.json'), '{}\n');
  writeFileSync(join(world.project, 'data.txt'), 'data\n');
  return world;
}

/** Runs `command` through the bash tool in `world`, allowed as `grant` says (a rule by default). */
async function runBash(
  world: World,
  mode: SandboxMode,
  command: string,
  grant: PermissionGrant = { by: 'rule', outsideSandbox: false },
) {
  const sandbox: Sandbox = createSandbox({
    settings: sandboxSettings(mode),
    projectDir: world.project,
    home: world.home,
  });
  const shell: ShellRunner = createShell({ cwd: world.project, sandbox, env: { HOME: world.home } });
  cleanup.push(async () => {
    shell.close();
    await sandbox.close();
  });
  const ctx = { ...toolContext(world.project), shell: () => shell, askPermission: async () => grant };
  return runTool(bashTool, { command }, ctx);
}

/** One harm: what to run, and whether it happened. */
interface HarmCase {
  name: string;
  setup?: (w: World) => void;
  command: (w: World) => string;
  harmed: (w: World, result: ToolResult) => boolean;
}

const outsideFile = (name: string) => (w: World) => existsSync(join(w.outside, name));
const configChanged = (w: World) => readFileSync(join(w.project, '.opencode.json'), 'utf8') !== '{}\n';

const WRITES_OUTSIDE: HarmCase[] = [
  { name: 'cp', command: (w) => `cp data.txt ${w.outside}/f`, harmed: outsideFile('f') },
  { name: 'mv', command: (w) => `mv data.txt ${w.outside}/f`, harmed: outsideFile('f') },
  { name: 'tee', command: (w) => `echo x | tee ${w.outside}/f`, harmed: outsideFile('f') },
  { name: 'touch', command: (w) => `touch ${w.outside}/f`, harmed: outsideFile('f') },
  { name: 'sh redirection', command: (w) => `sh -c 'echo x > ${w.outside}/f'`, harmed: outsideFile('f') },
  {
    name: 'python3 -c',
    command: (w) => `${PYTHON} -c "open('${w.outside}/f', 'w').write('x')"`,
    harmed: outsideFile('f'),
  },
  {
    name: 'node -e',
    command: (w) => `${NODE} -e "require('fs').writeFileSync('${w.outside}/f', 'x')"`,
    harmed: outsideFile('f'),
  },
  { name: 'git init', command: (w) => `git init -q ${w.outside}/f`, harmed: outsideFile('f') },
  { name: 'tar -c', command: (w) => `tar -cf ${w.outside}/f data.txt`, harmed: outsideFile('f') },
  { name: 'install', command: (w) => `install -m 644 data.txt ${w.outside}/f`, harmed: outsideFile('f') },
  {
    name: 'ln -s, then a write through the link',
    command: (w) => `ln -s ${w.outside}/f out-link && echo x > out-link`,
    harmed: outsideFile('f'),
  },
  { name: 'dd', command: (w) => `dd if=data.txt of=${w.outside}/f status=none`, harmed: outsideFile('f') },
  { name: 'perl', command: (w) => `perl -e 'open(my $f, ">", "${w.outside}/f")'`, harmed: outsideFile('f') },
  {
    name: 'a write to the home directory',
    command: () => 'echo x >> ~/.bashrc',
    harmed: (w) => existsSync(join(w.home, '.bashrc')),
  },
];

const WRITES_PROTECTED: HarmCase[] = [
  {
    name: '.opencode.json through a symbolic link',
    command: () => `ln -s .opencode.json cfg && echo '{"mcpServers":{}}' > cfg`,
    harmed: configChanged,
  },
  {
    name: '.opencode.json through a hard link',
    command: () => `ln .opencode.json hard && echo '{"x":1}' > hard`,
    harmed: configChanged,
  },
  {
    name: '.git/hooks through a folder operand (cp -a dir/. .)',
    setup: (w) => {
      mkdirSync(join(w.project, 'payload', '.git', 'hooks'), { recursive: true });
      writeFileSync(join(w.project, 'payload', '.git', 'hooks', 'pre-commit'), '#!/bin/sh\necho pwned\n');
    },
    command: () => 'cp -a payload/. .',
    harmed: (w) => existsSync(join(w.project, '.git', 'hooks', 'pre-commit')),
  },
  {
    name: '.opencode.json through an archive (tar -x)',
    setup: (w) => {
      mkdirSync(join(w.outside, 'a'));
      writeFileSync(join(w.outside, 'a', '.opencode.json'), '{"evil":true}\n');
      execFileSync('tar', ['-C', join(w.outside, 'a'), '-cf', join(w.outside, 'a.tar'), '.opencode.json']);
    },
    command: (w) => `tar -xf ${w.outside}/a.tar`,
    harmed: configChanged,
  },
  {
    name: '.git/config through git config',
    command: () => 'git config core.fsmonitor "touch /tmp/pwned"',
    harmed: (w) => readFileSync(join(w.project, '.git', 'config'), 'utf8').includes('fsmonitor'),
  },
  {
    name: 'a new .envrc (a protected name that did not exist)',
    command: () => 'echo "echo pwned" > .envrc',
    harmed: (w) => existsSync(join(w.project, '.envrc')),
  },
];

const READS_AND_NETWORK: HarmCase[] = [
  {
    name: 'reading ~/.ssh/id_rsa',
    command: () => 'cat ~/.ssh/id_rsa',
    harmed: (_w, r) => r.output.includes('FAKE-PRIVATE-KEY'),
  },
  {
    name: "reading opencode's environment under /proc",
    command: () => `tr '\\0' '\\n' < /proc/${process.pid}/environ | head -n 3`,
    harmed: (_w, r) => r.output.includes(readFileSync('/proc/self/environ', 'utf8').split('\0')[0]!),
  },
  {
    name: 'a TCP connection to a loopback listener',
    command: (w) =>
      `${PYTHON} -c "import socket; s=socket.create_connection(('127.0.0.1', ${ports.tcp}), 3); s.sendall(b'${w.token}'); s.close()"`,
    harmed: (w) => received.tcp.has(w.token),
  },
  {
    name: 'a UDP datagram to a loopback listener',
    command: (w) =>
      `${PYTHON} -c "import socket; socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b'${w.token}', ('127.0.0.1', ${ports.udp}))"`,
    harmed: (w) => received.udp.has(w.token),
  },
  {
    name: 'a DNS query carrying data in its name',
    command: (w) =>
      `${PYTHON} -c "import socket; q=b'\\x12\\x34\\x01\\x00\\x00\\x01\\x00\\x00\\x00\\x00\\x00\\x00'+b''.join(bytes([len(p)])+p for p in b'${w.token}.example.com'.split(b'.'))+b'\\x00\\x00\\x01\\x00\\x01'; socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(q, ('127.0.0.1', ${ports.dns}))"`,
    harmed: (w) => received.dns.has(w.token),
  },
];

/** Waits briefly for a datagram or connection that may still be on its way (the control's side). */
async function settle(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 100));
}

for (const [group, cases] of [
  ['writes outside the project', WRITES_OUTSIDE],
  ['writes to the files that decide what runs', WRITES_PROTECTED],
  ['secrets and the network', READS_AND_NETWORK],
] as const) {
  describe.skipIf(!CAN_RUN)(`bash in the sandbox: ${group}${SKIPPED}`, () => {
    for (const harm of cases) {
      it(`${harm.name}: does not happen in the sandbox`, async () => {
        const world = makeWorld();
        harm.setup?.(world);
        const result = await runBash(world, 'auto', harm.command(world));
        await settle();
        expect(harm.harmed(world, result)).toBe(false);
      });
      it(`${harm.name}: happens with "sandbox": "off" (the control)`, async () => {
        const world = makeWorld();
        harm.setup?.(world);
        const result = await runBash(world, 'off', harm.command(world));
        await settle();
        expect(harm.harmed(world, result)).toBe(true);
      });
    }
  });
}

describe.skipIf(!CAN_RUN)(`bash in the sandbox: levels and results${SKIPPED}`, () => {
  it('a command the person approved reaches the network, and still writes nothing outside', async () => {
    const world = makeWorld();
    const tcp = READS_AND_NETWORK.find((c) => c.name.startsWith('a TCP'))!;
    const result = await runBash(world, 'auto', `${tcp.command(world)}; touch ${world.outside}/f`, {
      by: 'person',
      outsideSandbox: false,
    });
    await settle();
    expect(received.tcp.has(world.token)).toBe(true);
    expect(existsSync(join(world.outside, 'f'))).toBe(false);
    expect(result.output).toContain("not the program's fault");
  });

  it('a command the person chose to run outside the sandbox writes outside', async () => {
    const world = makeWorld();
    await runBash(world, 'auto', `touch ${world.outside}/f`, { by: 'person', outsideSandbox: true });
    expect(existsSync(join(world.outside, 'f'))).toBe(true);
  });

  it('says the sandbox refused a write outside, not the program', async () => {
    const world = makeWorld();
    const result = await runBash(world, 'auto', `touch ${world.outside}/f`);
    expect(result).toMatchObject({ isError: true, metadata: { sandboxed: true, exit_code: 1 } });
    expect(result.output).toBe(
      `touch: cannot touch '${world.outside}/f': Read-only file system\n` +
        "The sandbox refused a write outside the project or to a protected file (read-only here); not the program's fault. " +
        'Run it in another way, or ask the person to run it outside the sandbox.\nExit code 1',
    );
  });

  it('says which protected file it removed when a command created one', async () => {
    const world = makeWorld();
    const result = await runBash(world, 'auto', 'echo x > .envrc');
    expect(result.output).toBe(
      `(the sandbox removed ${join(world.project, '.envrc')}, which the command created: a file that decides what runs is not created without the person's approval)`,
    );
  });

  it("a command run outside after one inside gets the shell's own variables back, not the sandbox's", async () => {
    const world = makeWorld();
    const sandbox = createSandbox({ settings: sandboxSettings('auto'), projectDir: world.project, home: world.home });
    const shell = createShell({ cwd: world.project, sandbox, env: { HOME: world.home } });
    cleanup.push(async () => {
      shell.close();
      await sandbox.close();
    });
    const show = 'echo "${OPENCODE_SANDBOXED-unset} ${OPENCODE_SANDBOX_LEVEL-unset}"';
    expect((await shell.exec(show, { timeoutMs: 10_000, sandbox: 'strict' })).stdout).toBe('1 strict\n');
    expect((await shell.exec(show, { timeoutMs: 10_000, sandbox: 'none' })).stdout).toBe('1 unset\n');
    expect((await shell.exec(show, { timeoutMs: 10_000, sandbox: 'network' })).stdout).toBe('1 network\n');
  });

  it('keeps a cd and an export done before a timeout, every time (the shell saves them before the sandbox ends)', async () => {
    const world = makeWorld();
    mkdirSync(join(world.project, 'sub'));
    const sandbox = createSandbox({ settings: sandboxSettings('auto'), projectDir: world.project, home: world.home });
    const shell = createShell({ cwd: world.project, sandbox, env: { HOME: world.home }, killGraceMs: 2_000 });
    cleanup.push(async () => {
      shell.close();
      await sandbox.close();
    });
    const seen: string[] = [];
    for (let i = 0; i < 4; i++) {
      const stopped = await shell.exec(`cd sub && export ROUND=${i} && sleep 30`, { timeoutMs: 500 });
      expect(stopped).toMatchObject({ timedOut: true, sandboxed: true });
      seen.push(
        `${shell.cwd === join(world.project, 'sub')} ${(await shell.exec('echo $ROUND; cd ..', { timeoutMs: 10_000 })).stdout.trim()}`,
      );
    }
    expect(seen).toEqual(['true 0', 'true 1', 'true 2', 'true 3']);
  });

  it('writes where sandbox.allowWrite says, and still nowhere else outside', async () => {
    const world = makeWorld();
    mkdirSync(join(world.home, '.cache'));
    const sandbox = createSandbox({
      settings: sandboxSettings({ allowWrite: ['~/.cache'] }),
      projectDir: world.project,
      home: world.home,
    });
    const shell = createShell({ cwd: world.project, sandbox, env: { HOME: world.home } });
    cleanup.push(async () => {
      shell.close();
      await sandbox.close();
    });
    const result = await shell.exec(`touch ~/.cache/kept; touch ${world.outside}/f`, { timeoutMs: 10_000 });
    expect(result.sandboxed).toBe(true);
    expect(existsSync(join(world.home, '.cache', 'kept'))).toBe(true);
    expect(existsSync(join(world.outside, 'f'))).toBe(false);
  });

  it('writes in the project and in TMPDIR, keeps cd and exports between commands', async () => {
    const world = makeWorld();
    const sandbox = createSandbox({ settings: sandboxSettings('auto'), projectDir: world.project, home: world.home });
    const shell = createShell({ cwd: world.project, sandbox, env: { HOME: world.home } });
    cleanup.push(async () => {
      shell.close();
      await sandbox.close();
    });
    const ctx = { ...toolContext(world.project), shell: () => shell, askPermission: async () => undefined };
    const first = await runTool(
      bashTool,
      {
        command: 'mkdir sub && echo a > sub/a && echo t > "$TMPDIR/t" && cat "$TMPDIR/t" && export KEPT=yes && cd sub',
      },
      ctx,
    );
    expect(first).toMatchObject({
      isError: false,
      output: `t\n(the working directory is now ${join(world.project, 'sub')})`,
    });
    const second = await runTool(bashTool, { command: 'echo $KEPT; cat a' }, ctx);
    expect(second.output).toBe(`(ran in ${join(world.project, 'sub')})\nyes\na`);
  });
});
