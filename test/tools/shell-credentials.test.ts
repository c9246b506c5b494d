/**
 * The bash tool's shell holds none of the credentials opencode uses unless the config passes them
 * through (`shell.passEnv`), and its state files are private
 * (an `N.env` file of mode 0644 would hold the whole environment, ANTHROPIC_API_KEY included).
 * Real shells; the tables of redact.ts with an example per row.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bashTool } from '../../src/tools/bash.js';
import {
  CREDENTIAL_ENV_NAMES,
  credentialValues,
  forgetSecrets,
  heldSecrets,
  redactSecrets,
  redactSecretsDeep,
  rememberSecrets,
  withoutCredentials,
} from '../../src/tools/redact.js';
import { recordingContext, runTool, tempDir, type RecordingContext } from '../support/recording-context.js';

const saved: Record<string, string | undefined> = {};
let tmp: { dir: string; remove(): void };
let rec: RecordingContext | undefined;

beforeEach(() => {
  tmp = tempDir('opencode-shell-keys-');
  for (const name of ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'OPENCODE_TEST_PLAIN']) saved[name] = process.env[name];
  process.env.ANTHROPIC_API_KEY = 'sk-ant-test-shell-000111222';
  process.env.OPENAI_API_KEY = 'sk-openai-test-333444555';
  process.env.OPENCODE_TEST_PLAIN = 'plain-value';
});
afterEach(() => {
  rec?.close();
  rec = undefined;
  tmp.remove();
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  forgetSecrets();
});

describe('the shell environment', () => {
  it('has no provider key; other variables are inherited', async () => {
    rec = recordingContext({ cwd: tmp.dir });
    const result = await runTool(
      bashTool,
      { command: 'env | grep -c "_API_KEY=" ; printenv OPENCODE_TEST_PLAIN' },
      rec.ctx,
    );
    expect(result.output).toBe('0\nplain-value');
  });

  it('passes through exactly the keys named in shell.passEnv', async () => {
    rec = recordingContext({ cwd: tmp.dir, shell: { passEnv: ['OPENAI_API_KEY'] } });
    const result = await runTool(
      bashTool,
      { command: 'printenv OPENAI_API_KEY; printenv ANTHROPIC_API_KEY || echo "no anthropic key"' },
      rec.ctx,
    );
    expect(result.output).toBe('sk-openai-test-333444555\nno anthropic key');
  });

  it('writes its state files 0600 in a 0700 directory, without the keys', async () => {
    rec = recordingContext({ cwd: tmp.dir });
    // the command's EXIT trap runs after the wrapper saved the state and before the agent removes it
    const probe =
      'export PROBE_VAR=visible; trap \'stat -c "%a" "$__oc_state.env" "$__oc_state.cwd" "$__oc_state.status" "${__oc_state%/*}" > modes.txt; ' +
      'cat "$__oc_state.env" > env-copy.txt\' EXIT';
    await runTool(bashTool, { command: probe }, rec.ctx);
    expect(readFileSync(join(tmp.dir, 'modes.txt'), 'utf8')).toBe('600\n600\n600\n700\n');
    const snapshot = readFileSync(join(tmp.dir, 'env-copy.txt'), 'utf8');
    expect(snapshot).toContain('PROBE_VAR');
    expect(snapshot).not.toContain('sk-ant-test-shell-000111222');
    expect(snapshot).not.toContain('sk-openai-test-333444555');
    expect(snapshot).not.toContain('API_KEY');
  });

  it('shows live output with held keys redacted', async () => {
    rememberSecrets(['sk-live-progress-secret']);
    rec = recordingContext({ cwd: tmp.dir });
    await runTool(bashTool, { command: 'echo sk-live-progress-secret; sleep 0.4; echo done' }, rec.ctx);
    expect(rec.progress[0]).toBe('[redacted]\n');
  });
});

describe('withoutCredentials', () => {
  it.each([
    [{ ANTHROPIC_API_KEY: 'a', PATH: '/bin' }, [], { PATH: '/bin' }],
    [{ OPENAI_API_KEY: 'o', GROQ_API_KEY: 'g' }, ['GROQ_API_KEY'], { GROQ_API_KEY: 'g' }],
    [{ GITHUB_TOKEN: 't', HOME: '/h' }, [], { GITHUB_TOKEN: 't', HOME: '/h' }],
    [{ toString: 'x', UNSET: undefined }, [], { toString: 'x' }],
  ] as [Record<string, string | undefined>, string[], Record<string, string>][])(
    '%j passing %j gives %j',
    (env, pass, expected) => {
      expect(withoutCredentials(env, pass)).toEqual(expected);
    },
  );

  it('lists every key the provider settings read', () => {
    for (const name of ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'GROQ_API_KEY', 'OPENROUTER_API_KEY', 'XAI_API_KEY']) {
      expect(Object.keys(CREDENTIAL_ENV_NAMES)).toContain(name);
    }
  });
});

describe('redactSecrets', () => {
  it.each([
    ['an exact value', ['sk-abcdefgh12'], 'key=sk-abcdefgh12;', 'key=[redacted];'],
    ['every occurrence', ['sk-abcdefgh12'], 'sk-abcdefgh12 sk-abcdefgh12', '[redacted] [redacted]'],
    [
      'the longer of two overlapping secrets whole',
      ['sk-abcdefgh', 'sk-abcdefgh-long-tail'],
      'x sk-abcdefgh-long-tail',
      'x [redacted]',
    ],
    ['nothing for values under 8 characters', ['dummy', 'short1'], 'dummy short1', 'dummy short1'],
    ['a value given with surrounding spaces, as trimmed', ['  sk-trimmed-value \n'], 'sk-trimmed-value', '[redacted]'],
  ])('hides %s', (_name, values, text, expected) => {
    rememberSecrets(values);
    expect(redactSecrets(text)).toBe(expected);
  });

  it('reaches strings inside metadata, leaving other values', () => {
    rememberSecrets(['sk-meta-secret-1']);
    expect(
      redactSecretsDeep({ content: 'a sk-meta-secret-1', lines: ['sk-meta-secret-1'], count: 3, ok: true, none: null }),
    ).toEqual({
      content: 'a [redacted]',
      lines: ['[redacted]'],
      count: 3,
      ok: true,
      none: null,
    });
  });

  it('takes the held secrets from the credential variables and the config keys', () => {
    expect(
      heldSecrets({ ANTHROPIC_API_KEY: 'sk-a', PATH: '/bin', XAI_API_KEY: 'xai-1' }, ['cfg-key', undefined]),
    ).toEqual(['sk-a', 'xai-1', 'cfg-key']);
  });
});

describe("credentialValues (an MCP entry's env and headers)", () => {
  it.each([
    [{ GITHUB_TOKEN: 'ghp_abc' }, ['ghp_abc']],
    [{ DB_PASSWORD: 'pw', OPENAI_API_KEY: 'sk-o' }, ['pw', 'sk-o']],
    [{ Authorization: 'Bearer tok-123' }, ['Bearer tok-123', 'tok-123']],
    [{ 'X-Api-Key': 'k1' }, ['k1']],
    [{ GIT_AUTHOR_NAME: 'Jane Doe', DEBUG: '1', MONKEY: 'banana' }, []],
    [undefined, []],
  ] as [Record<string, string> | undefined, string[]][])('%j gives %j', (entries, expected) => {
    expect(credentialValues(entries)).toEqual(expected);
  });
});
