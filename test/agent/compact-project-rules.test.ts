/**
 * The summarizer sees the project's rules: the context files the coder's prompt includes
 * (OpenCode.md, AGENTS.md, …) go into the summarizing request, so the summary keeps what they require.
 * Through the real app: createApp wires the project into compaction.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { systemPrompt } from '../../src/agent/prompts.js';
import { startTuiApp, type TuiApp } from '../support/tui-app.js';

let t: TuiApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const RULES_INTRO =
  'The coding agent must follow the project rules below. Keep in the summary whatever they require of the work still to do (conventions, commands to run, things not to do, files not to touch), and note where the work so far departed from them.';

describe('compaction and the project rules', () => {
  it('the summarizing request carries OpenCode.md and AGENTS.md, each once, after the summarizer instructions', async () => {
    t = await startTuiApp([
      { text: 'Started on the parser.' },
      { text: 'Summary: parser work begun; run make check before committing.' },
    ]);
    writeFileSync(join(t.dir, 'OpenCode.md'), 'Build: make\nAlways run `make check` before committing.\n');
    writeFileSync(join(t.dir, 'AGENTS.md'), 'Never edit files under vendor/.\n');
    const session = t.app.db.sessions.create({ title: 'parser' });
    await t.app.coder.run(session.id, 'fix the parser');

    await t.app.compact(session.id);

    const request = t.fake.answered[1];
    const base = systemPrompt('summarizer');
    expect(request.system[0].text).toBe(
      `${base}\n\n# Project-Specific Context\n${RULES_INTRO}\n` +
        `# From:${join(t.dir, 'OpenCode.md')}\nBuild: make\nAlways run \`make check\` before committing.\n\n\n` +
        `# From:${join(t.dir, 'AGENTS.md')}\nNever edit files under vendor/.\n`,
    );
  });

  it('without context files the summarizer prompt is the plain one', async () => {
    t = await startTuiApp([{ text: 'Hello.' }, { text: 'Summary: greeted.' }]);
    const session = t.app.db.sessions.create({ title: 'hi' });
    await t.app.coder.run(session.id, 'hi');
    await t.app.compact(session.id);
    expect(t.fake.answered[1].system[0].text).toBe(systemPrompt('summarizer'));
  });
});
