/**
 * `opencode stats` reads a few config keys without the schema, and says what the full check would say
 * about the files from what it remembered of them (`config-check.cache.json` in the data directory):
 * the same warnings on every run, a config error every time, a changed file checked again, and nothing
 * written where there is no data directory.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_CHECK_CACHE_NAME } from '../../src/cli/stats-config.js';
import { cleanEnv, runCli } from '../support/cli.js';

function project(config: string, withDataDir: boolean): { dir: string; configFile: string; cacheFile: string } {
  const dir = mkdtempSync(join(tmpdir(), 'opencode-stats-config-'));
  if (withDataDir) mkdirSync(join(dir, '.opencode'));
  writeFileSync(join(dir, '.opencode.json'), config);
  return { dir, configFile: join(dir, '.opencode.json'), cacheFile: join(dir, '.opencode', CONFIG_CHECK_CACHE_NAME) };
}

describe('opencode stats: the config check', () => {
  it("prints the full check's warnings on every run, the later ones from the cache", async () => {
    const { dir, configFile, cacheFile } = project(JSON.stringify({ colour: 'red', tools: { fetch: false } }), true);
    const env = cleanEnv();
    const warning = `warning: ${configFile}: colour: unknown key\n`;

    const first = await runCli(['stats'], { cwd: dir, env });
    expect(first.code).toBe(0);
    expect(first.stderr).toBe(warning);
    expect(JSON.parse(readFileSync(cacheFile, 'utf8')).warnings).toEqual([`${configFile}: colour: unknown key`]);

    const second = await runCli(['stats'], { cwd: dir, env });
    expect(second.stderr).toBe(warning);
    expect(second.stdout).toBe(first.stdout);
    expect(second.stdout).not.toContain('fetch');

    // the second run took the warnings from the cache: what it holds is what is printed
    const cache = JSON.parse(readFileSync(cacheFile, 'utf8'));
    writeFileSync(cacheFile, JSON.stringify({ ...cache, warnings: ['remembered'] }));
    expect((await runCli(['stats'], { cwd: dir, env })).stderr).toBe('warning: remembered\n');

    // any edit of the file is a miss: checked again
    writeFileSync(configFile, JSON.stringify({ colour: 'blue', tools: { fetch: false } }));
    expect((await runCli(['stats'], { cwd: dir, env })).stderr).toBe(warning);
  });

  it('refuses a config with an error on every run and remembers nothing', async () => {
    // the error is in a key stats does not read: only the full check sees it
    const { dir, configFile, cacheFile } = project(JSON.stringify({ autoCompact: 'yes' }), true);
    const env = cleanEnv();
    for (let run = 0; run < 2; run++) {
      const result = await runCli(['stats'], { cwd: dir, env });
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(`${configFile}: autoCompact: expected boolean, got string\n`);
    }
    expect(existsSync(cacheFile)).toBe(false);
  });

  it('writes no cache and no data directory where there is none', async () => {
    const { dir } = project(JSON.stringify({ colour: 'red' }), false);
    const env = cleanEnv();
    for (let run = 0; run < 2; run++) {
      const result = await runCli(['stats'], { cwd: dir, env });
      expect(result.code).toBe(0);
      expect(result.stderr).toBe(`warning: ${join(dir, '.opencode.json')}: colour: unknown key\n`);
    }
    expect(existsSync(join(dir, '.opencode'))).toBe(false);
  });
});
