/**
 * Quitting while a request waits on a silent provider: the background title of a new
 * session kept the process alive 13+ minutes after the person quit, with a blank screen. Quitting now
 * aborts every request and the process ends. First through the app (the real App, SQLite and SDK
 * against the fake provider), then end to end: the TUI in a real terminal (tmux), quit with ctrl+c y,
 * and SIGHUP (the terminal window closed) while a reply and a title both wait.
 *
 * The provider's stall limits keep their defaults (60 s, then retries for up to 3 minutes), so each
 * test here would run out its timeout if quitting waited for the stalled request.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { systemPrompt } from '../../src/agent/prompts.js';
import { createApp, type App } from '../../src/app/app.js';
import { resolveModels } from '../../src/app/models.js';
import { loadConfig } from '../../src/config/load.js';
import { BIN } from '../support/cli.js';
import { startFakeProvider, type FakeProvider, type FakeTurn } from '../support/fake-provider.js';
import { startTui, tuiProject, type Terminal } from '../support/tmux.js';

let fake: FakeProvider | undefined;
let app: App | undefined;
let tui: Terminal | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await tui?.kill();
  app?.cancelAll();
  await app?.close();
  await fake?.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  tui = app = fake = undefined;
});

/** The pid of the `bin/opencode` node process running in `cwd` (found through /proc). */
function opencodePid(cwd: string): number {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (cmdline[1] === BIN && readlinkSync(`/proc/${entry}/cwd`) === cwd) return Number(entry);
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  throw new Error(`no opencode process in ${cwd}`);
}

/** The fake's title requests (system prompt of the title agent) never get an answer: not even headers. */
const TITLE_PROMPT = systemPrompt('title');
const isTitleRequest = (body: { system?: string | { text?: string }[] }) =>
  (typeof body.system === 'string' ? body.system : (body.system ?? []).map((b) => b.text ?? '').join('')) ===
  TITLE_PROMPT;
const stallTitles = (body: { system?: string | { text?: string }[] }): FakeTurn | undefined =>
  isTitleRequest(body) ? { delayMs: 600_000, text: 'never' } : undefined;

describe('quitting with a title request waiting on a silent provider', () => {
  it('the app: cancelAll and close end the title request instead of waiting for it, and report nothing', async () => {
    fake = await startFakeProvider([{ text: 'Hello.' }], { sideTurn: stallTitles });
    const dir = mkdtempSync(join(tmpdir(), 'opencode-quit-'));
    dirs.push(dir);
    mkdirSync(join(dir, '.home'));
    const env = {
      HOME: join(dir, '.home'),
      ANTHROPIC_API_KEY: 'sk-ant-test',
      ANTHROPIC_BASE_URL: fake.anthropicBaseURL,
    };
    const { config } = loadConfig({ cwd: dir, env });
    const models = await resolveModels(config, env);
    app = createApp({
      cwd: dir,
      config,
      models: models.models,
      providerSettings: models.settings,
      generateTitles: true,
    });
    const warnings: string[] = [];
    app.bus.on('warning', (w) => warnings.push(w.message));
    const session = app.db.sessions.create({ title: 'New session' });

    const result = await app.coder.run(session.id, 'hi');
    expect(result.reason).toBe('end_turn');
    // the title request has reached the provider and waits there
    expect(fake.requests.filter((r) => isTitleRequest(r.body))).toHaveLength(1);

    app.cancelAll();
    await app.close();
    app = undefined;
    expect(warnings).toEqual([]);
  }, 15_000);

  it('the TUI: ctrl+c y after the reply ends the process, exit 0', async () => {
    fake = await startFakeProvider([{ text: 'Hello there.' }], { sideTurn: stallTitles });
    const dir = tuiProject();
    dirs.push(dir);
    // the pane stays after the TUI so its last screen can be read (see test/support/tmux.ts)
    const command = ['sh', '-c', `"$0" "$1"; echo EXITED:$?; exec sleep 60`, process.execPath, BIN];
    tui = await startTui({ cwd: dir, anthropicBaseURL: fake.anthropicBaseURL, command });
    await tui.submit('say hello');
    await tui.waitFor('Hello there.');
    expect(fake.requests.filter((r) => isTitleRequest(r.body))).toHaveLength(1);
    await tui.press('C-c');
    await tui.waitFor('Quit opencode?');
    await tui.press('y');
    expect(await tui.waitFor('EXITED:', 5_000)).toBe('EXITED:0');
  }, 40_000);

  it('the TUI: SIGHUP while the reply and the title both wait ends the process, exit 129', async () => {
    // message_start, ping, the text block's start, one delta; then the reply hangs too
    fake = await startFakeProvider([{ text: ['Working on it: ', 'never finished.'], stallAfterChunks: 4 }], {
      sideTurn: stallTitles,
    });
    const dir = tuiProject();
    dirs.push(dir);
    const command = ['sh', '-c', `"$0" "$1"; echo EXITED:$?; exec sleep 60`, process.execPath, BIN];
    tui = await startTui({ cwd: dir, anthropicBaseURL: fake.anthropicBaseURL, command });
    await tui.submit('take your time');
    await tui.waitFor('Working on it:');
    process.kill(opencodePid(dir), 'SIGHUP');
    expect(await tui.waitFor('EXITED:', 5_000)).toBe('EXITED:129');
  }, 40_000);
});
