/**
 * End to end in a real terminal (tmux): the VS Code extension's channel into the TUI it started.
 * The extension's own client (extensions/vscode/src/channel-client.ts) talks to `opencode` run with
 * the variables the extension sets, against the loopback fake provider.
 * - an `@path#L…` mention lands at the end of the prompt, after what was typed, and nothing is sent;
 * - a wrong token is refused and changes nothing;
 * - started without the variables, opencode listens on no Unix socket at all.
 *
 * Run alone: `npx vitest run test/e2e/tui-vscode-channel.test.ts` (needs tmux and a built dist/).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  disposeChannel,
  newChannel,
  send,
  sendOnce,
  type ChannelAddress,
} from '../../extensions/vscode/src/channel-client.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import {
  answerTitles,
  CODER_MODEL_NAME,
  OPENCODE,
  startTerminal,
  tuiEnv,
  tuiProject,
  type Terminal,
} from '../support/tmux.js';

let fake: FakeProvider;
let withChannel: Terminal;
let without: Terminal;
let channel: ChannelAddress;
const dirs: string[] = [];

/** The paths of the Unix sockets the process in `terminal`'s pane (and its children) listen on. */
function listeningSocketPaths(terminal: Terminal): string[] {
  const panePid = execFileSync('tmux', ['-S', terminal.socket, 'display-message', '-p', '#{pane_pid}'], {
    encoding: 'utf8',
  }).trim();
  const pids = [
    panePid,
    ...execFileSync('sh', ['-c', `pgrep -P ${panePid} || true`], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean),
  ];
  const inodes = new Set<string>();
  for (const pid of pids) {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      try {
        const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (m) inodes.add(m[1]);
      } catch {
        // the fd closed while being listed
      }
    }
  }
  // /proc/net/unix: Num RefCount Protocol Flags Type St Inode Path; flag 00010000 is a listening socket
  return readFileSync('/proc/net/unix', 'utf8')
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((f) => f.length >= 8 && inodes.has(f[6]) && (parseInt(f[3], 16) & 0x10000) !== 0)
    .map((f) => f[7]);
}

beforeAll(async () => {
  fake = await startFakeProvider([], { sideTurn: answerTitles() });
  const dir = tuiProject({ 'README.md': '# demo\n' });
  mkdirSync(join(dir, 'src'));
  writeFileSync(join(dir, 'src', 'app.ts'), 'export {};\n');
  dirs.push(dir);
  channel = newChannel();
  const env = tuiEnv(fake.anthropicBaseURL, {
    OPENCODE_VSCODE_SOCKET: channel.socketPath,
    OPENCODE_VSCODE_TOKEN: channel.token,
  });
  dirs.push(env.HOME!);
  withChannel = await startTerminal({ command: OPENCODE, cwd: dir, env });
  const plainEnv = tuiEnv(fake.anthropicBaseURL);
  dirs.push(plainEnv.HOME!);
  without = await startTerminal({ command: OPENCODE, cwd: dir, env: plainEnv });
  await withChannel.waitFor(CODER_MODEL_NAME, 20_000);
  await without.waitFor(CODER_MODEL_NAME, 20_000);
});

afterAll(async () => {
  await withChannel?.kill();
  await without?.kill();
  await fake?.close();
  if (channel) disposeChannel(channel);
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('opencode TUI in tmux: the VS Code channel', () => {
  it('appends the mention to the typed prompt and sends nothing', async () => {
    await withChannel.type('explain');
    await withChannel.waitFor(/^> explain/m);
    expect(await send(channel, { type: 'append', text: '@src/app.ts#L1-2' })).toEqual({ ok: true });
    expect(await send(channel, { type: 'focus' })).toEqual({ ok: true });
    await withChannel.waitFor(/^> explain @src\/app\.ts#L1-2 *$/m);
    // a prompt sent would have reached the provider as a completion request
    expect(fake.requests.filter((r) => r.path.includes('/messages'))).toEqual([]);
  });

  it('refuses a wrong token and leaves the prompt as it was', async () => {
    const forged = { ...channel, token: 'f'.repeat(64) };
    expect(await sendOnce(forged, { type: 'append', text: '@README.md' })).toEqual({ ok: false, error: 'wrong token' });
    const screen = await withChannel.screen();
    expect(screen).toMatch(/^> explain @src\/app\.ts#L1-2 *$/m);
    expect(screen).not.toContain('README.md');
  });

  it("listens on the extension's socket only when started with the variables", () => {
    expect(listeningSocketPaths(withChannel)).toEqual([channel.socketPath]);
    expect(listeningSocketPaths(without)).toEqual([]);
  });
});
