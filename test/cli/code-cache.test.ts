/**
 * The command starts from a V8 code cache (src/cli/code-cache.ts): the first run of a kind
 * compiles and saves, the next takes every file's code from the cache, and a broken, foreign or
 * switched-off cache changes nothing but the time. Through bin/opencode and the real dist/.
 */
import { chmodSync, mkdtempSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runKind, shortHash } from '../../src/cli/code-cache.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { cleanEnv, runCli } from '../support/cli.js';
import { cacheCounts, remoteMcpProject } from '../support/code-cache.js';

describe('runKind: which cache a run uses', () => {
  const cases: [string[], string][] = [
    [[], 'tui'], // the TUI
    [['--continue'], 'tui'],
    [['-c', 'stats'], 'tui'], // a --cwd named "stats" is not the sub-command
    [['-p', 'hi', '-q'], 'prompt'],
    [['-q', '--prompt=hi'], 'prompt'],
    [['-m', 'anthropic/x', '-p', '-'], 'prompt'],
    [['--help'], 'help'],
    [['stats', '--days', '7'], 'stats'],
    [['--profile', 'work', 'sessions', 'list'], 'sessions'],
    [['Fix/this'], 'other'], // a stray argument: the command refuses it
  ];
  it.each(cases)('%j → %s', (args, kind) => {
    expect(runKind(args)).toBe(kind);
  });
});

describe('shortHash: the cache file name parts', () => {
  it('is FNV-1a, 32 bits, 8 hex digits', () => {
    expect(shortHash('')).toBe('811c9dc5'); // the FNV offset basis
    expect(shortHash('a')).toBe('e40c292c'); // the FNV-1a test vector for "a"
    expect(shortHash('/usr/lib/node_modules/opencode/dist')).toMatch(/^[0-9a-f]{8}$/);
  });
});

describe('bin/opencode with a code cache', () => {
  let fake: FakeProvider | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  const setup = () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-code-cache-test-'));
    const cacheDir = join(dir, 'cache');
    let n = 0;
    const env = (extra: Record<string, string> = {}) =>
      cleanEnv({ OPENCODE_CODE_CACHE_DIR: cacheDir, OPENCODE_STARTUP_TRACE: join(dir, `trace-${++n}.txt`), ...extra });
    return { dir, cacheDir, env, trace: () => join(dir, `trace-${n}.txt`) };
  };

  it('compiles and saves on the first run, takes every file from the cache on the next, with the same output', async () => {
    const { dir, cacheDir, env, trace } = setup();
    const first = await runCli(['keybindings'], { cwd: dir, env: env() });
    expect(first.code).toBe(0);
    const compiled = cacheCounts(trace());
    expect(compiled.fromCache).toBe(0);
    expect(compiled.compiled).toBeGreaterThan(0);
    expect(readdirSync(cacheDir).filter((f) => f.startsWith('keybindings-') && f.endsWith('.bin'))).toHaveLength(1);

    const second = await runCli(['keybindings'], { cwd: dir, env: env() });
    expect(second.code).toBe(0);
    expect(cacheCounts(trace())).toEqual({ fromCache: compiled.compiled, compiled: 0 });
    expect(second.stdout).toBe(first.stdout);
    expect(second.stderr).toBe('');
  });

  it('a broken cache file is compiled over and written again; the output is the same', async () => {
    const { dir, cacheDir, env, trace } = setup();
    const first = await runCli(['keybindings'], { cwd: dir, env: env() });
    const files = cacheCounts(trace()).compiled;
    const [cacheFile] = readdirSync(cacheDir);
    writeFileSync(join(cacheDir, cacheFile!), 'not a cache');
    const broken = await runCli(['keybindings'], { cwd: dir, env: env() });
    expect(broken.code).toBe(0);
    expect(broken.stdout).toBe(first.stdout);
    expect(cacheCounts(trace())).toEqual({ fromCache: 0, compiled: files });
    await runCli(['keybindings'], { cwd: dir, env: env() });
    expect(cacheCounts(trace())).toEqual({ fromCache: files, compiled: 0 });
  });

  it("a save removes the temp files of saves killed before their rename once an hour old, and leaves a running save's", async () => {
    const { dir, cacheDir, env } = setup();
    await runCli(['keybindings'], { cwd: dir, env: env() });
    const [cacheFile] = readdirSync(cacheDir);
    const stale = join(cacheDir, `${cacheFile}.4242.k3jd83kd.tmp`);
    const running = join(cacheDir, `${cacheFile}.4343.a8d7f6s5.tmp`);
    writeFileSync(stale, 'killed mid-save');
    writeFileSync(running, 'being written');
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
    utimesSync(stale, twoHoursAgo, twoHoursAgo);
    writeFileSync(join(cacheDir, cacheFile!), 'not a cache'); // the next run compiles, so it saves
    expect((await runCli(['keybindings'], { cwd: dir, env: env() })).code).toBe(0);
    expect(readdirSync(cacheDir).sort()).toEqual([cacheFile, `${cacheFile}.4343.a8d7f6s5.tmp`].sort());
  });

  it('a cache folder others can write to is neither read nor written', async () => {
    const { dir, cacheDir, env, trace } = setup();
    await runCli(['keybindings'], { cwd: dir, env: env() });
    const before = readFileSync(join(cacheDir, readdirSync(cacheDir)[0]!));
    chmodSync(cacheDir, 0o777);
    const run = await runCli(['keybindings'], { cwd: dir, env: env() });
    expect(run.code).toBe(0);
    expect(cacheCounts(trace()).fromCache).toBe(0);
    expect(readFileSync(join(cacheDir, readdirSync(cacheDir)[0]!)).equals(before)).toBe(true);
  });

  it('OPENCODE_CODE_CACHE=off: no cache is read or made, the output is the same', async () => {
    const { dir, cacheDir, env } = setup();
    const cached = await runCli(['keybindings'], {
      cwd: dir,
      env: env({ OPENCODE_CODE_CACHE_DIR: join(cacheDir, 'other') }),
    });
    const off = await runCli(['keybindings'], { cwd: dir, env: env({ OPENCODE_CODE_CACHE: 'off' }) });
    expect(off.code).toBe(0);
    expect(off.stdout).toBe(cached.stdout);
    expect(readdirSync(cacheDir)).toEqual(['other']);
  });

  it('-p takes its code from its own cache on the second run', async () => {
    const { dir, env, trace } = setup();
    fake = await startFakeProvider([], { fallback: { text: 'hi' } });
    const provider = { ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.anthropicBaseURL };
    const first = await runCli(['-p', 'say hi', '-q'], { cwd: dir, env: env(provider) });
    expect(first.stdout).toBe('hi\n');
    const files = cacheCounts(trace()).compiled;
    const second = await runCli(['-p', 'say hi', '-q'], { cwd: dir, env: env(provider) });
    expect(second.code).toBe(0);
    expect(second.stdout).toBe('hi\n');
    expect(cacheCounts(trace())).toEqual({ fromCache: files, compiled: 0 });
  });

  it('-p runs with and without a remote MCP server (which sets --liftoff-only as it runs) keep their own code: neither compiles again', async () => {
    const { dir, env, trace } = setup();
    fake = await startFakeProvider([], { fallback: { text: 'hi' } });
    const provider = { ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.anthropicBaseURL };
    const remote = await remoteMcpProject(dir, 'http');
    const plain = mkdtempSync(join(dir, 'plain-'));
    const compiledOf = async (cwd: string) => {
      const run = await runCli(['--trust', '-p', 'say hi', '-q'], { cwd, env: env(provider) });
      expect(run.code).toBe(0);
      expect(run.stdout).toBe('hi\n');
      return cacheCounts(trace()).compiled;
    };
    expect(await compiledOf(remote)).toBeGreaterThan(0);
    // the files loaded before the flag too: their code was taken before the flag changed it
    expect(await compiledOf(remote)).toBe(0);
    // the files the remote run loaded after the flag, compiled once more without it, beside those entries
    expect(await compiledOf(plain)).toBeGreaterThan(0);
    expect(await compiledOf(remote)).toBe(0);
    expect(await compiledOf(plain)).toBe(0);
  });
});
