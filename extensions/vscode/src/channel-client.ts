/**
 * The extension's end of the channel to the TUI it started (the TUI's end is
 * `src/tui/editor-channel.ts` of opencode): one JSON line a request over the Unix socket, one JSON
 * line back. The TUI starts listening a moment after its terminal opens, so a send retries the
 * connection for a while.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The environment variables the TUI reads. */
export const SOCKET_VAR = 'OPENCODE_VSCODE_SOCKET';
export const TOKEN_VAR = 'OPENCODE_VSCODE_TOKEN';

/** One TUI's channel: where it listens and the token it expects. */
export interface ChannelAddress {
  socketPath: string;
  token: string;
  /** the private folder holding the socket (mode 0700, removed by {@link disposeChannel}) */
  dir: string;
}

/** A new address: a fresh 0700 folder (mkdtemp makes it so) and 32 random bytes as hex. */
export function newChannel(): ChannelAddress {
  const dir = mkdtempSync(join(tmpdir(), 'opencode-vscode-'));
  return { dir, socketPath: join(dir, 'tui.sock'), token: randomBytes(32).toString('hex') };
}

/** Removes the channel's folder (and the socket in it). */
export function disposeChannel(address: ChannelAddress): void {
  rmSync(address.dir, { recursive: true, force: true });
}

/** The TUI's answer. */
export type ChannelReply = { ok: true } | { ok: false; error: string };

/** Sends one request once. @throws when the socket cannot be reached or closes without an answer */
export function sendOnce(
  address: ChannelAddress,
  request: { type: 'append'; text: string } | { type: 'focus' },
): Promise<ChannelReply> {
  return new Promise((resolve, reject) => {
    const socket = connect(address.socketPath);
    let data = '';
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(JSON.stringify({ token: address.token, ...request }) + '\n'));
    socket.on('data', (chunk: string) => {
      data += chunk;
      const newline = data.indexOf('\n');
      if (newline === -1) return;
      socket.end();
      try {
        resolve(JSON.parse(data.slice(0, newline)) as ChannelReply);
      } catch {
        reject(new Error(`opencode answered something that is not JSON: ${data.slice(0, newline)}`));
      }
    });
    socket.on('error', reject);
    socket.on('close', () => reject(new Error('opencode closed the channel without answering')));
  });
}

/**
 * Sends a request, retrying the connection every `intervalMs` until `waitMs` has passed (the TUI
 * may still be starting).
 * @throws the last connection error when the TUI never listened
 */
export async function send(
  address: ChannelAddress,
  request: { type: 'append'; text: string } | { type: 'focus' },
  waitMs = 15_000,
  intervalMs = 200,
): Promise<ChannelReply> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      return await sendOnce(address, request);
    } catch (err) {
      if (Date.now() >= deadline) throw err;
      await new Promise((r) => setTimeout(r, intervalMs));
    }
  }
}
