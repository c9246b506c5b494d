/**
 * End to end in a real terminal (tmux) against the fake providers: ctrl+o writes the model into a
 * commented JSONC project config changing nothing else, and alt+p switches the
 * provider profile so the next request goes to another server with another model.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { answerTitles, startTui, tuiProject, type Terminal } from '../support/tmux.js';

let tui: Terminal | undefined;
const fakes: FakeProvider[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await tui?.kill();
  tui = undefined;
  for (const fake of fakes.splice(0)) await fake.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
});

describe('the TUI and .opencode.json', () => {
  it('ctrl+o then enter adds the model to a commented project config, and nothing else changes', async () => {
    const fake = await startFakeProvider([], { sideTurn: answerTitles() });
    fakes.push(fake);
    const config = [
      "// this project's settings",
      '{',
      '  /* colours */',
      '  "tui": { "theme": "opencode" }, // the default',
      '  "autoCompact": true,',
      '}',
      '',
    ].join('\n');
    const dir = tuiProject({ '.opencode.json': config });
    dirs.push(dir);
    tui = await startTui({ cwd: dir, anthropicBaseURL: fake.anthropicBaseURL });
    await tui.press('C-o');
    // the models are listed once the dialog has them; the current one (Sonnet 5.5, second) is selected
    await tui.waitFor('✓ Claude Sonnet 5.5');
    await tui.press('Up', 'Enter');
    await tui.waitFor('saved to .opencode.json as agents.coder.model');
    expect(readFileSync(join(dir, '.opencode.json'), 'utf8')).toBe(
      config.replace(
        '  "autoCompact": true,\n',
        '  "autoCompact": true,\n  "agents": {\n    "coder": {\n      "model": "anthropic/claude-opus-5-5"\n    }\n  },\n',
      ),
    );
  });

  it('alt+p switches the profile: the status bar names it and the next request goes to its server and model', async () => {
    const work = await startFakeProvider([], { sideTurn: answerTitles() });
    const local = await startFakeProvider([{ text: 'Answered locally.' }], {
      models: ['qwen3-coder'],
      sideTurn: answerTitles(),
    });
    fakes.push(work, local);
    const dir = tuiProject({
      '.opencode.json': JSON.stringify({
        profiles: {
          local: {
            providers: { local: { baseURL: local.url } },
            agents: { coder: { model: 'local/qwen3-coder' }, title: { model: 'local/qwen3-coder' } },
          },
          work: {
            providers: { anthropic: { apiKeyEnv: 'WORK_ANTHROPIC_KEY' } },
            agents: { coder: { model: 'anthropic/claude-opus-5-5' } },
          },
        },
      }),
    });
    dirs.push(dir);
    tui = await startTui({ cwd: dir, anthropicBaseURL: work.anthropicBaseURL });
    await tui.press('M-p');
    await tui.waitFor('Select Profile');
    // (no profile) is current; work's key is not set
    expect(await tui.waitFor('key missing')).toContain('local/qwen3-coder');
    await tui.press('Down', 'Enter');
    await tui.waitFor('local · qwen3-coder');
    await tui.submit('hello');
    await tui.waitFor('Answered locally.');
    expect(local.answered.map((b) => b.model)).toEqual(['qwen3-coder']);
    expect(work.answered).toEqual([]);
  });
});
