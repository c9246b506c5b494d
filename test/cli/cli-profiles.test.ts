/**
 * Provider profiles from the command line and a saved model that does not lock you out,
 * through bin/opencode against two fake providers: one speaking Anthropic's wire
 * format (the `work` profile), one an OpenAI-compatible local server (the `local` profile).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanEnv, runCli } from '../support/cli.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';

let work: FakeProvider;
let local: FakeProvider;
let dir: string;
beforeEach(async () => {
  work = await startFakeProvider([], { fallback: { text: 'from work' } });
  local = await startFakeProvider([], { fallback: { text: 'from local' }, models: ['qwen3-coder'] });
  dir = mkdtempSync(join(tmpdir(), 'opencode-profiles-'));
});
afterEach(async () => {
  await work.close();
  await local.close();
});

const WORK_KEY = 'sk-ant-work-0123456789abcdef';

/** The README's example, pointed at the fakes (JSONC: comments and trailing commas as people write them). */
function writeProfiles(extra = ''): void {
  writeFileSync(
    join(dir, '.opencode.json'),
    `{
  // one set of settings per place I work from
  "profiles": {
    "work": {
      "description": "Anthropic, billed to work",
      "providers": { "anthropic": { "apiKeyEnv": "WORK_ANTHROPIC_KEY", "baseURL": "${work.anthropicBaseURL}" } },
      "agents": { "coder": { "model": "anthropic/claude-sonnet-5-5" } },
    },
    "local": {
      "providers": { "local": { "baseURL": "${local.url}" } },
      "agents": { "coder": { "model": "local/qwen3-coder" }, "title": { "model": "local/qwen3-coder" } },
    },
  },${extra}
}
`,
  );
}

describe('opencode -p with a profile', () => {
  it('--profile work sends to the work base URL with the work key and model', async () => {
    writeProfiles();
    const run = await runCli(['-p', 'hi', '--profile', 'work'], {
      cwd: dir,
      env: cleanEnv({ WORK_ANTHROPIC_KEY: WORK_KEY }),
    });
    expect(run).toMatchObject({ code: 0, stdout: 'from work\n', stderr: '' });
    expect(work.answered.map((b) => b.model)).toEqual(['claude-sonnet-5-5']);
    expect(work.requests.find((r) => r.api === 'anthropic')!.headers.authorization).toBe(`Bearer ${WORK_KEY}`);
    expect(local.requests).toEqual([]);
  });

  it('OPENCODE_PROFILE=local sends to the local server with its model', async () => {
    writeProfiles();
    const run = await runCli(['-p', 'hi'], {
      cwd: dir,
      env: cleanEnv({ OPENCODE_PROFILE: 'local', WORK_ANTHROPIC_KEY: WORK_KEY }),
    });
    expect(run).toMatchObject({ code: 0, stdout: 'from local\n', stderr: '' });
    expect(local.answered.map((b) => b.model)).toEqual(['qwen3-coder']);
    expect(local.requests.filter((r) => r.api === 'openai').map((r) => r.path)).toEqual(['/v1/chat/completions']);
    expect(work.requests).toEqual([]);
  });

  it('--profile wins over OPENCODE_PROFILE', async () => {
    writeProfiles();
    const run = await runCli(['-p', 'hi', '--profile', 'local'], {
      cwd: dir,
      env: cleanEnv({ OPENCODE_PROFILE: 'work', WORK_ANTHROPIC_KEY: WORK_KEY }),
    });
    expect(run).toMatchObject({ code: 0, stdout: 'from local\n' });
  });

  it('reports the missing key of the chosen profile, and nothing is sent', async () => {
    writeProfiles();
    const run = await runCli(['-p', 'hi', '--profile', 'work'], {
      cwd: dir,
      env: cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-personal-0123456789' }),
    });
    expect(run.code).toBe(2);
    // the personal key is not used instead: the work profile named its own variable
    expect(run.stderr).toBe(
      'opencode: Profile "work": agents.coder.model "anthropic/claude-sonnet-5-5": no credentials for provider "anthropic" (set WORK_ANTHROPIC_KEY (named by providers.anthropic.apiKeyEnv)).\n',
    );
    expect(work.requests).toEqual([]);
  });

  it("does not report a profile that is not chosen: work's missing key is no problem for local", async () => {
    writeProfiles();
    const run = await runCli(['-p', 'hi', '--profile', 'local'], { cwd: dir, env: cleanEnv() });
    expect(run).toMatchObject({ code: 0, stdout: 'from local\n', stderr: '' });
  });

  it('names the profiles there are when the one asked for is not', async () => {
    writeProfiles();
    const run = await runCli(['-p', 'hi', '--profile', 'wrok'], {
      cwd: dir,
      env: cleanEnv({ WORK_ANTHROPIC_KEY: WORK_KEY }),
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('opencode: unknown profile "wrok"; the config has: local, work (--profile)\n');
  });
});

describe('a saved model whose provider has no key', () => {
  it('falls back to a provider that has one, with a warning naming the file it came from', async () => {
    const file = join(dir, '.opencode.json');
    writeFileSync(
      file,
      '{\n  // picked with ctrl+o last week\n  "agents": { "coder": { "model": "openai/gpt-4.1" } },\n}\n',
    );
    const env = cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-test-0123456789', ANTHROPIC_BASE_URL: work.anthropicBaseURL });
    const run = await runCli(['-p', 'hi'], { cwd: dir, env });
    expect(run).toMatchObject({ code: 0, stdout: 'from work\n' });
    expect(run.stderr).toBe(
      `opencode: warning: agents.coder.model "openai/gpt-4.1" (from ${file}): no credentials for provider "openai" (set OPENAI_API_KEY or providers.openai.apiKey); using anthropic/claude-sonnet-5-5\n`,
    );
    expect(work.answered.map((b) => b.model)).toEqual(['claude-sonnet-5-5']);
  });

  it('is refused when given with -m: it was asked for by name', async () => {
    const env = cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-test-0123456789', ANTHROPIC_BASE_URL: work.anthropicBaseURL });
    const run = await runCli(['-p', 'hi', '-m', 'openai/gpt-4.1'], { cwd: dir, env });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'opencode: No credentials for provider "openai" (model openai/gpt-4.1): set OPENAI_API_KEY or providers.openai.apiKey.\n',
    );
  });
});

describe('opencode profiles', () => {
  it('lists each profile, its models, base URLs and whether each key is there, never the key', async () => {
    writeProfiles();
    const run = await runCli(['profiles'], {
      cwd: dir,
      env: cleanEnv({ OPENCODE_PROFILE: 'work', WORK_ANTHROPIC_KEY: WORK_KEY }),
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      [
        '  local',
        '    coder  local/qwen3-coder',
        '    title  local/qwen3-coder',
        `    local  ${local.url}/v1  no key needed`,
        '* work  Anthropic, billed to work',
        '    coder  anthropic/claude-sonnet-5-5',
        `    anthropic  ${work.anthropicBaseURL}  key WORK_ANTHROPIC_KEY: present`,
        'Active: work (OPENCODE_PROFILE).',
        '',
      ].join('\n'),
    );
    expect(run.stdout).not.toContain(WORK_KEY);
  });

  it('says a key is missing, and prints JSON with --json', async () => {
    writeProfiles();
    const run = await runCli(['profiles', '--json'], { cwd: dir, env: cleanEnv() });
    expect(run.code).toBe(0);
    const listing = JSON.parse(run.stdout) as {
      active: string | null;
      profiles: { name: string; problems: string[]; providers: unknown[] }[];
    };
    expect(listing.active).toBe(null);
    expect(listing.profiles.map((p) => [p.name, p.problems])).toEqual([
      ['local', []],
      ['work', ['anthropic: WORK_ANTHROPIC_KEY is not set']],
    ]);
    expect(listing.profiles[1]!.providers).toEqual([
      { id: 'anthropic', baseURL: work.anthropicBaseURL, key: { state: 'missing', from: 'WORK_ANTHROPIC_KEY' } },
    ]);
  });

  it('exits 2 naming the profiles there are when the active one is unknown', async () => {
    writeProfiles();
    const run = await runCli(['profiles', '--profile', 'home'], { cwd: dir, env: cleanEnv() });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('opencode: unknown profile "home" (--profile); the config has: local, work\n');
  });
});
