/**
 * Keys that reach a dialog before its list has loaded (ctrl+o ↓ enter in one read: a fast typist,
 * tmux send-keys, a scripted session). On the first opening the models dialog asks a local server
 * for its models; the keys after ctrl+o came while the list was empty and were lost (enter chose
 * nothing, or the ↓ was dropped and enter chose the first model). The whole TUI on a real app
 * (ink-testing-library), the local server a real loopback HTTP server that answers when the test
 * lets it.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tick, tuiPerTest } from '../support/render-tui.js';

const tui = tuiPerTest();

/** A local OpenAI-compatible server whose `GET /v1/models` answers only once `answer()` is called. */
async function slowLocalServer(models: string[]) {
  let requests = 0;
  let answer!: () => void;
  const answered = new Promise<void>((resolve) => (answer = resolve));
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || req.url !== '/v1/models') {
      res.writeHead(404).end();
      return;
    }
    requests++;
    void answered.then(() => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'test' })) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests: () => requests,
    answer,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let local: Awaited<ReturnType<typeof slowLocalServer>> | undefined;
afterEach(async () => {
  local?.answer();
  await local?.close();
  local = undefined;
});

const CODER = 'anthropic/claude-sonnet-4-5';

/** The TUI on an app with Anthropic and a local server (not yet answering); the coder model is Anthropic's. */
async function startWithLocal() {
  local = await slowLocalServer(['local-a', 'local-b', 'local-c']);
  const app = await tui.start([], { config: { providers: { local: { baseURL: local.baseURL } }, agents: { coder: { model: CODER } } } });
  const rendered = tui.render();
  await rendered.waitFor((f) => f.includes('>'));
  return { app, ...rendered };
}

/** The coder model saved to the project's .opencode.json. */
const savedModel = (dir: string): unknown => (JSON.parse(readFileSync(join(dir, '.opencode.json'), 'utf8')) as { agents: { coder: { model?: string } } }).agents.coder.model;

describe('keys typed with ctrl+o before the models have loaded', () => {
  it('ctrl+o ← ↓ enter in one read choose the local server\'s second model, once its list is there', async () => {
    const { app, ui, waitFor } = await startWithLocal();
    ui.stdin.write('\u000f\u001b[D\u001b[B\r'); // ctrl+o, Left (wraps to the last provider: local), Down, Enter
    await waitFor((f) => f.includes('Select Model'));
    await waitFor(() => local!.requests() === 1);
    // the keys have all been read while the list loads
    await tick(200);
    local!.answer();
    await waitFor((f) => !f.includes('Select Model'));
    await waitFor(() => app.services.agent.model().id === 'local/local-b');
    expect(savedModel(app.dir)).toBe('local/local-b');
  });
});
