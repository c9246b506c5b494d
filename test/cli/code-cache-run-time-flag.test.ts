/**
 * The code cache around a V8 flag a -p run sets as it runs (issue 16: `--liftoff-only` when a remote MCP
 * server is configured; src/cli/run-v8-flags.ts, src/cli/code-cache.ts). Before the flag, the code of the
 * files compiled so far is serialised (V8 stamps code with the flags of that moment); a file whose code
 * came from the cache keeps its entry instead, so a run that took them all from the cache serialises
 * nothing there (before, ~75 files, ~12–25 ms of CPU on every such run). Through bin/opencode, the real
 * dist/ and the loopback fake provider; the start-up trace says what was taken and compiled.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { cleanEnv, runCli } from '../support/cli.js';
import { cacheCounts, closedPort } from '../support/code-cache.js';

interface Start {
  fromCache: number;
  compiled: number;
  /** files whose code was serialised before the flag; undefined when the run set no flag */
  taken: number | undefined;
}

/**
 * Runs `-p "say hi"` in a folder, against `fake`, with the cache in `dir`; returns what its start-up
 * trace says of the code cache.
 */
function starter(dir: string, fake: FakeProvider): (cwd: string) => Promise<Start> {
  let n = 0;
  return async (cwd) => {
    const trace = join(dir, `trace-${++n}.txt`);
    const env = cleanEnv({
      OPENCODE_CODE_CACHE_DIR: join(dir, 'cache'),
      OPENCODE_STARTUP_TRACE: trace,
      ANTHROPIC_API_KEY: 'sk-ant-test',
      ANTHROPIC_BASE_URL: fake.anthropicBaseURL,
    });
    const run = await runCli(['-p', 'say hi', '-q'], { cwd, env });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('hi\n');
    const taken = /the code of (\d+) files taken before a V8 flag/.exec(readFileSync(trace, 'utf8'));
    return { ...cacheCounts(trace), taken: taken ? Number(taken[1]) : undefined };
  };
}

describe('the code cache and a V8 flag set at run time', () => {
  let fake: FakeProvider | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  it('serialises before the flag only the files it compiled; the entries of the others stay good', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-code-cache-flag-'));
    fake = await startFakeProvider([], { fallback: { text: 'hi' } });
    const remote = mkdtempSync(join(dir, 'remote-'));
    // a port nothing listens on: the server fails to connect, with a warning, and the prompt runs
    writeFileSync(join(remote, '.opencode.json'), JSON.stringify({ mcpServers: { gone: { type: 'http', url: `http://127.0.0.1:${await closedPort()}/mcp` } } }));
    const plain = mkdtempSync(join(dir, 'plain-'));
    const start = starter(dir, fake);

    // the plain run first: every file it loads has an entry without the flag
    const first = await start(plain);
    expect(first).toMatchObject({ fromCache: 0, taken: undefined });
    // the remote run takes the files it loads before the flag from those entries, and serialises none
    const remoteFirst = await start(remote);
    expect(remoteFirst.taken).toBe(0);
    expect(remoteFirst.compiled).toBeGreaterThan(0);
    // the entries it kept are the plain run's, still good: neither kind compiles again
    expect(await start(plain)).toEqual({ fromCache: first.compiled, compiled: 0, taken: undefined });
    expect(await start(remote)).toEqual({ fromCache: remoteFirst.fromCache + remoteFirst.compiled, compiled: 0, taken: 0 });
  });

  it('a remote run on an empty cache serialises the files it compiled before the flag, which a plain run then takes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-code-cache-flag-'));
    fake = await startFakeProvider([], { fallback: { text: 'hi' } });
    const remote = mkdtempSync(join(dir, 'remote-'));
    writeFileSync(join(remote, '.opencode.json'), JSON.stringify({ mcpServers: { gone: { type: 'sse', url: `http://127.0.0.1:${await closedPort()}/sse` } } }));
    const plain = mkdtempSync(join(dir, 'plain-'));
    const start = starter(dir, fake);

    const first = await start(remote);
    expect(first.fromCache).toBe(0);
    expect(first.taken).toBeGreaterThan(0);
    // the plain run finds exactly the files loaded before the flag
    const plainFirst = await start(plain);
    expect(plainFirst.fromCache).toBe(first.taken);
    expect(await start(remote)).toEqual({ fromCache: first.compiled, compiled: 0, taken: 0 });
    expect(await start(plain)).toEqual({ fromCache: plainFirst.fromCache + plainFirst.compiled, compiled: 0, taken: undefined });
  });
});
