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
      res.end(
        JSON.stringify({
          object: 'list',
          data: models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'test' })),
        }),
      );
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

/**
 * The TUI on an app with Anthropic and a local server (not yet answering); the coder model is
 * Anthropic's. `local-a` is configured, so choosing the default models at the start does not list
 * the server (that listing would be cached for the process); ctrl+o lists it (src/cli/tui-services.ts).
 */
async function startWithLocal() {
  local = await slowLocalServer(['local-a', 'local-b', 'local-c']);
  const config = {
    providers: { local: { baseURL: local.baseURL, models: { 'local-a': { contextWindow: 8192 } } } },
    agents: { coder: { model: CODER } },
  };
  const app = await tui.start([], { config });
  expect(local.requests()).toBe(0);
  const rendered = tui.render();
  await rendered.waitFor((f) => f.includes('>'));
  return { app, ...rendered };
}

/** The coder model saved to the project's .opencode.json. */
const savedModel = (dir: string): unknown =>
  (JSON.parse(readFileSync(join(dir, '.opencode.json'), 'utf8')) as { agents: { coder: { model?: string } } }).agents
    .coder.model;

/** The dialog's rows (between its top and bottom border), trimmed. */
function dialogRows(frame: string): string[] {
  const lines = frame.split('\n');
  const top = lines.findIndex((l) => l.includes('╭'));
  const bottom = lines.findIndex((l) => l.includes('╰'));
  return lines.slice(top + 1, bottom).map((l) => l.replace(/^\s*│ ?/, '').replace(/\s*│\s*$/, ''));
}

describe('keys typed with ctrl+o before the models have loaded', () => {
  it('the dialog says the models are loading, not that there are none', async () => {
    const { ui, waitFor } = await startWithLocal();
    ui.stdin.write('\u000f');
    const frame = await waitFor((f) => f.includes('Select Model'));
    expect(dialogRows(frame)).toEqual(['Select Model', '', 'Loading models…', 'enter: this project · g: global']);
    local!.answer();
    const loaded = await waitFor((f) => f.includes('Anthropic (1/2)'));
    expect(loaded).not.toContain('Loading models…');
    expect(loaded).toContain('✓ Claude Sonnet 4.5');
  });

  it('ctrl+o ↓ enter in one read choose the model after the current one, once the list is there', async () => {
    const { app, ui, waitFor } = await startWithLocal();
    ui.stdin.write('\u000f\u001b[B\r'); // ctrl+o, Down, Enter
    await waitFor((f) => f.includes('Loading models…'));
    await waitFor(() => local!.requests() === 1);
    // every key has been read while the list loads (answered well within the 2 s the listing may take)
    await tick(100);
    expect(ui.lastFrame()).toContain('Loading models…');
    local!.answer();
    await waitFor(() => app.services.agent.model().id === 'anthropic/claude-haiku-4-5');
    expect(savedModel(app.dir)).toBe('anthropic/claude-haiku-4-5');
    expect(ui.lastFrame()).not.toContain('Select Model');
  });

  it("ctrl+o ← ↓ enter in one read choose the local server's second model", async () => {
    const { app, ui, waitFor } = await startWithLocal();
    ui.stdin.write('\u000f\u001b[D\u001b[B\r'); // ctrl+o, Left (wraps to the last provider: local), Down, Enter
    await waitFor((f) => f.includes('Loading models…'));
    await waitFor(() => local!.requests() === 1);
    await tick(100);
    local!.answer();
    await waitFor(() => app.services.agent.model().id === 'local/local-b');
    expect(savedModel(app.dir)).toBe('local/local-b');
    expect(ui.lastFrame()).not.toContain('Select Model');
  });

  it('esc closes the loading dialog at once; the ↓ typed before it is dropped, and the list arriving later changes nothing', async () => {
    const { app, ui, waitFor } = await startWithLocal();
    ui.stdin.write('\u000f\u001b[B');
    await waitFor((f) => f.includes('Loading models…'));
    ui.stdin.write('\u001b');
    const closed = await waitFor((f) => !f.includes('Select Model'));
    expect(local!.requests()).toBe(1); // still unanswered
    expect(closed).toContain('ctrl+/ help');
    local!.answer();
    ui.stdin.write('x');
    // the x is the editor's: nothing held was handed to it, or to a dialog, before it
    await waitFor((f) => /^>\s*x\s*$/m.test(f));
    expect(app.services.agent.model().id).toBe(CODER);
    expect(savedModel(app.dir)).toBe(CODER);
  });

  it('ctrl+c while the list loads asks to quit at once; "no" goes back to the dialog, which then lists the models', async () => {
    const { ui, waitFor } = await startWithLocal();
    ui.stdin.write('\u000f\u001b[B');
    await waitFor((f) => f.includes('Loading models…'));
    ui.stdin.write('\u0003');
    await waitFor((f) => f.includes('Quit opencode?'));
    expect(local!.requests()).toBe(1);
    ui.stdin.write('n');
    await waitFor((f) => f.includes('Select Model'));
    local!.answer();
    // the ↓ typed before ctrl+c was dropped: the current model stays selected
    const frame = await waitFor((f) => f.includes('Anthropic (1/2)'));
    expect(frame).toMatch(/│ ✓ Claude Sonnet 4\.5 +│/);
  });
});
