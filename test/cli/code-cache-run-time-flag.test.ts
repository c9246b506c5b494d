/**
 * The code cache around a V8 flag a -p run sets as it runs (`--liftoff-only` when a remote MCP
 * server is configured; src/cli/run-v8-flags.ts, src/cli/code-cache.ts). Before the flag, the code of the
 * files compiled so far is serialised (V8 stamps code with the flags of that moment); a file whose code
 * came from the cache keeps its entry instead, so a run that took them all from the cache serialises
 * nothing there (before, ~75 files, ~12–25 ms of CPU on every such run). Through bin/opencode, the real
 * dist/ and the loopback fake provider; the start-up trace says what was taken and compiled.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { cachedRuns, remoteMcpProject } from '../support/code-cache.js';

interface Start {
  fromCache: number;
  compiled: number;
  /** files whose code was serialised before the flag; undefined when the run set no flag */
  taken: number | undefined;
}

/**
 * A cache folder, a project with a remote MCP server of `type` and a plain one, and `start`, which runs
 * `-p "say hi"` in one of them against `fake` and returns what its start-up trace says of the code cache.
 */
async function setup(
  fake: FakeProvider,
  type: 'http' | 'sse',
): Promise<{ remote: string; plain: string; start: (cwd: string) => Promise<Start> }> {
  const { dir, run } = cachedRuns('opencode-code-cache-flag-');
  const provider = { ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.anthropicBaseURL };
  const start = async (cwd: string): Promise<Start> => {
    const started = await run(['--trust', '-p', 'say hi', '-q'], { cwd, env: provider });
    expect(started.code).toBe(0);
    expect(started.stdout).toBe('hi\n');
    const taken = /the code of (\d+) files taken before a V8 flag/.exec(readFileSync(started.trace, 'utf8'));
    return { ...started.counts(), taken: taken ? Number(taken[1]) : undefined };
  };
  return { remote: await remoteMcpProject(dir, type), plain: mkdtempSync(join(dir, 'plain-')), start };
}

describe('the code cache and a V8 flag set at run time', () => {
  let fake: FakeProvider | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  it('serialises before the flag only the files it compiled; the entries of the others stay good', async () => {
    fake = await startFakeProvider([], { fallback: { text: 'hi' } });
    const { remote, plain, start } = await setup(fake, 'http');

    // the plain run first: every file it loads has an entry without the flag
    const first = await start(plain);
    expect(first).toMatchObject({ fromCache: 0, taken: undefined });
    // the remote run takes the files it loads before the flag from those entries, and serialises none
    const remoteFirst = await start(remote);
    expect(remoteFirst.taken).toBe(0);
    expect(remoteFirst.compiled).toBeGreaterThan(0);
    // the entries it kept are the plain run's, still good: neither kind compiles again
    expect(await start(plain)).toEqual({ fromCache: first.compiled, compiled: 0, taken: undefined });
    expect(await start(remote)).toEqual({
      fromCache: remoteFirst.fromCache + remoteFirst.compiled,
      compiled: 0,
      taken: 0,
    });
  });

  it('a remote run on an empty cache serialises the files it compiled before the flag, which a plain run then takes', async () => {
    fake = await startFakeProvider([], { fallback: { text: 'hi' } });
    const { remote, plain, start } = await setup(fake, 'sse');

    const first = await start(remote);
    expect(first.fromCache).toBe(0);
    expect(first.taken).toBeGreaterThan(0);
    // the plain run finds exactly the files loaded before the flag
    const plainFirst = await start(plain);
    expect(plainFirst.fromCache).toBe(first.taken);
    expect(await start(remote)).toEqual({ fromCache: first.compiled, compiled: 0, taken: 0 });
    expect(await start(plain)).toEqual({
      fromCache: plainFirst.fromCache + plainFirst.compiled,
      compiled: 0,
      taken: undefined,
    });
  });
});
