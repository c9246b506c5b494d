/**
 * The Profiles section of docs/configuration.md works as written: its example config, saved as a
 * project's `.opencode.json`, gives the `opencode profiles` listing the section shows.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanEnv, runCli } from '../support/cli.js';

const PAGE = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'configuration.md'), 'utf8');
const start = PAGE.indexOf('\n## Profiles\n');
const next = PAGE.indexOf('\n## ', start + 1);
const section = PAGE.slice(start, next === -1 ? undefined : next);
/** The fenced blocks of the section, in order, with their language. */
const blocks = [...section.matchAll(/```(\w*)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1], text: m[2]! }));

describe('docs/configuration.md Profiles', () => {
  it('its example config gives the listing it shows', async () => {
    const config = blocks.find((b) => b.lang === 'jsonc')!.text;
    const listing = blocks.find((b) => b.lang === '' && b.text.includes('Active: work'))!.text;
    const dir = mkdtempSync(join(tmpdir(), 'opencode-readme-profiles-'));
    writeFileSync(join(dir, '.opencode.json'), config);
    const run = await runCli(['profiles'], { cwd: dir, env: cleanEnv({ OPENCODE_PROFILE: 'work' }) });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toBe(listing);
  });
});
