/**
 * The TUI's end of the VS Code channel (src/tui/editor-channel.ts) over a real Unix socket in a
 * temp folder: what it accepts, what it refuses, and that it opens nothing without its variables.
 */
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  appendToPrompt,
  decideRequest,
  EditorChannelError,
  MAX_LINE_BYTES,
  openEditorChannel,
  SOCKET_VAR,
  TOKEN_VAR,
  type EditorChannel,
} from '../../src/tui/editor-channel.js';

const TOKEN = 'a'.repeat(64);

describe('decideRequest', () => {
  const cases: [string, string, unknown][] = [
    [
      'append',
      JSON.stringify({ token: TOKEN, type: 'append', text: '@src/a.ts#L10-24' }),
      { reply: { ok: true }, action: { type: 'append', text: '@src/a.ts#L10-24' } },
    ],
    ['focus', JSON.stringify({ token: TOKEN, type: 'focus' }), { reply: { ok: true }, action: { type: 'focus' } }],
    [
      'wrong token',
      JSON.stringify({ token: 'b'.repeat(64), type: 'focus' }),
      { reply: { ok: false, error: 'wrong token' } },
    ],
    ['shorter token', JSON.stringify({ token: 'a', type: 'focus' }), { reply: { ok: false, error: 'wrong token' } }],
    ['no token', JSON.stringify({ type: 'focus' }), { reply: { ok: false, error: 'wrong token' } }],
    [
      'submit',
      JSON.stringify({ token: TOKEN, type: 'submit', text: 'rm -rf /' }),
      { reply: { ok: false, error: 'unknown type "submit": only "append" and "focus" are accepted' } },
    ],
    [
      'a carriage return',
      JSON.stringify({ token: TOKEN, type: 'append', text: 'hi\r' }),
      { reply: { ok: false, error: 'text holds control characters' } },
    ],
    [
      'an escape sequence',
      JSON.stringify({ token: TOKEN, type: 'append', text: '\u001b[13~' }),
      { reply: { ok: false, error: 'text holds control characters' } },
    ],
    [
      'empty text',
      JSON.stringify({ token: TOKEN, type: 'append', text: '' }),
      { reply: { ok: false, error: 'append needs a non-empty "text"' } },
    ],
    ['not JSON', 'append hi', { reply: { ok: false, error: 'not JSON: send one JSON object per line' } }],
    ['an array', '[1]', { reply: { ok: false, error: 'not a JSON object' } }],
  ];
  it.each(cases)('%s', (_name, line, expected) => {
    expect(decideRequest(line, TOKEN)).toEqual(expected);
  });
});

describe('appendToPrompt', () => {
  it.each([
    ['', '@a.ts', '@a.ts'],
    ['look at', '@a.ts', 'look at @a.ts'],
    ['look at ', '@a.ts', 'look at @a.ts'],
    ['line\n', '@a.ts', 'line\n@a.ts'],
  ])('%j + %j', (current, text, expected) => expect(appendToPrompt(current, text)).toBe(expected));
});

/** Sends raw bytes, resolves to every line received before the TUI closed the connection or `lines` arrived. */
function exchange(path: string, data: string, lines = Infinity): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const socket = connect(path);
    let received = '';
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(data));
    socket.on('data', (chunk: string) => {
      received += chunk;
      const got = received.split('\n').filter(Boolean);
      if (got.length >= lines) {
        socket.destroy();
        resolve(got);
      }
    });
    socket.on('end', () => resolve(received.split('\n').filter(Boolean)));
    socket.on('error', reject);
  });
}

describe('openEditorChannel', () => {
  let dir: string;
  let channel: EditorChannel | undefined;
  let appended: string[];
  let focused: number;
  const handlers = { append: (t: string) => appended.push(t), focus: () => focused++ };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'oc-channel-'));
    appended = [];
    focused = 0;
  });
  afterEach(async () => {
    await channel?.close();
    channel = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it('opens nothing without the variables', async () => {
    expect(await openEditorChannel({}, handlers)).toBeUndefined();
  });

  it('refuses one variable without the other', async () => {
    await expect(openEditorChannel({ [SOCKET_VAR]: join(dir, 's') }, handlers)).rejects.toThrow(
      new EditorChannelError('OPENCODE_VSCODE_SOCKET and OPENCODE_VSCODE_TOKEN go together: set both or neither'),
    );
  });

  it('refuses a folder other users can open', async () => {
    chmodSync(dir, 0o755);
    await expect(openEditorChannel({ [SOCKET_VAR]: join(dir, 's'), [TOKEN_VAR]: TOKEN }, handlers)).rejects.toThrow(
      `OPENCODE_VSCODE_SOCKET: the folder ${dir} can be opened by other users (mode 755; it must be 700)`,
    );
  });

  it('refuses a socket path that is taken', async () => {
    writeFileSync(join(dir, 's'), '');
    await expect(openEditorChannel({ [SOCKET_VAR]: join(dir, 's'), [TOKEN_VAR]: TOKEN }, handlers)).rejects.toThrow(
      `OPENCODE_VSCODE_SOCKET: ${join(dir, 's')} is in use already`,
    );
  });

  it('appends and focuses with the token, refuses a wrong token and closes that connection, removes the variables', async () => {
    const env: NodeJS.ProcessEnv = { [SOCKET_VAR]: join(dir, 's'), [TOKEN_VAR]: TOKEN, KEEP: '1' };
    channel = await openEditorChannel(env, handlers);
    expect(env).toEqual({ KEEP: '1' });
    const path = join(dir, 's');
    const ok =
      [
        JSON.stringify({ token: TOKEN, type: 'append', text: '@a.ts' }),
        JSON.stringify({ token: TOKEN, type: 'focus' }),
      ].join('\n') + '\n';
    expect(await exchange(path, ok, 2)).toEqual(['{"ok":true}', '{"ok":true}']);
    expect(appended).toEqual(['@a.ts']);
    expect(focused).toBe(1);
    // the refusal ends the connection: the append after it on the same connection is never read
    const bad =
      [
        JSON.stringify({ token: 'x'.repeat(64), type: 'append', text: '@b.ts' }),
        JSON.stringify({ token: TOKEN, type: 'append', text: '@c.ts' }),
      ].join('\n') + '\n';
    expect(await exchange(path, bad)).toEqual(['{"ok":false,"error":"wrong token"}']);
    expect(appended).toEqual(['@a.ts']);
  });

  it('refuses a line over the size limit, even before its end arrives', async () => {
    channel = await openEditorChannel({ [SOCKET_VAR]: join(dir, 's'), [TOKEN_VAR]: TOKEN }, handlers);
    const huge = JSON.stringify({ token: TOKEN, type: 'append', text: 'x'.repeat(MAX_LINE_BYTES) });
    expect(await exchange(join(dir, 's'), huge)).toEqual([
      `{"ok":false,"error":"request too long: at most ${MAX_LINE_BYTES} bytes a line"}`,
    ]);
    expect(appended).toEqual([]);
  });

  it('removes its socket file when closed', async () => {
    channel = await openEditorChannel({ [SOCKET_VAR]: join(dir, 's'), [TOKEN_VAR]: TOKEN }, handlers);
    expect(existsSync(join(dir, 's'))).toBe(true);
    await channel!.close();
    channel = undefined;
    expect(existsSync(join(dir, 's'))).toBe(false);
  });
});
