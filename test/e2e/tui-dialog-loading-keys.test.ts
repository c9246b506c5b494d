/**
 * End to end in a real terminal (tmux): ctrl+o ← ↓ enter sent in one `send-keys` (one read, as a
 * scripted session or a fast typist gives them) while the local server has not yet listed its
 * models. The keys after ctrl+o wait for the list and then pick the local server's second model;
 * they were lost on the empty list. The local server is a loopback HTTP server that answers
 * `GET /v1/models` only when the test lets it.
 */
import { readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_MODELS } from '../../src/provider/catalog.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { startTui, tuiProject, type Terminal } from '../support/tmux.js';

let fake: FakeProvider | undefined;
let tui: Terminal | undefined;
let server: http.Server | undefined;
let dir: string | undefined;

afterAll(async () => {
  await tui?.kill();
  await fake?.close();
  server?.closeAllConnections();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  if (dir) rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
});

describe('opencode TUI in tmux: keys sent with ctrl+o before the models have loaded', () => {
  it("ctrl+o ← ↓ enter in one send-keys choose the local server's second model once it has listed them", async () => {
    fake = await startFakeProvider([]);
    let requests = 0;
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    server = http.createServer((req, res) => {
      requests++;
      void answered.then(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            object: 'list',
            data: ['local-a', 'local-b'].map((id) => ({ id, object: 'model', created: 0, owned_by: 'test' })),
          }),
        );
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    // local-a configured: choosing the default models at start lists nothing; ctrl+o asks the server
    const config = {
      providers: { local: { baseURL, models: { 'local-a': { contextWindow: 8192 } } } },
      agents: { coder: { model: DEFAULT_MODELS.anthropic.coder } },
    };
    dir = tuiProject({ '.opencode.json': JSON.stringify(config) });
    tui = await startTui({ cwd: dir, anthropicBaseURL: fake.anthropicBaseURL });
    expect(requests).toBe(0);

    await tui.press('C-o', 'Left', 'Down', 'Enter');
    await tui.waitFor('Loading models…');
    for (let i = 0; i < 100 && requests === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(requests).toBe(1);
    answer();
    await tui.waitFor('Model: local-b (saved to .opencode.json as agents.coder.model)');
    const saved = JSON.parse(readFileSync(join(dir, '.opencode.json'), 'utf8')) as {
      agents: { coder: { model: string } };
    };
    expect(saved.agents.coder.model).toBe('local/local-b');
  });
});
