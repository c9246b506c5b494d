/**
 * The TUI's start takes the full config check's remembered result when the config files are unchanged
 * (`tui-config.cache.json` in the data directory): the same config, warnings and sources as
 * the full loader's, without the schema; any edit, a new global file, another build's config code is a
 * miss; a config error is never remembered and is reported on every start; nothing is written where
 * there is no data directory; from the sources (no fingerprint) nothing is read or written.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TUI_CONFIG_CACHE_NAME, loadTuiConfig } from '../../src/cli/tui-config.js';
import { loadConfig } from '../../src/config/load.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A project (with its data directory unless `withDataDir` is false) and an empty HOME. */
function project(config: string | undefined, withDataDir = true) {
  const dir = mkdtempSync(join(tmpdir(), 'opencode-tui-config-'));
  const home = mkdtempSync(join(tmpdir(), 'opencode-tui-config-home-'));
  dirs.push(dir, home);
  if (withDataDir) mkdirSync(join(dir, '.opencode'));
  const configFile = join(dir, '.opencode.json');
  if (config !== undefined) writeFileSync(configFile, config);
  return { dir, home, configFile, cacheFile: join(dir, '.opencode', TUI_CONFIG_CACHE_NAME), env: { HOME: home } };
}

const CONFIG = JSON.stringify({
  colour: 'red',
  tui: { theme: 'dracula' },
  lsp: { go: { command: 'gopls' } },
  keybindings: { 'app.help': 'f1' },
});

describe("the TUI's remembered config check", () => {
  it("gives the full loader's result on the first start and the same from the cache on the next", async () => {
    const { dir, env, configFile, cacheFile } = project(CONFIG);
    const first = await loadTuiConfig({ cwd: dir, env, fingerprint: 'build-1' });
    expect(first.fromCache).toBe(false);
    expect(first.loaded).toStrictEqual(loadConfig({ cwd: dir, env }));
    expect(existsSync(cacheFile)).toBe(false); // written only when asked: after the first frame
    first.remember();
    expect(existsSync(cacheFile)).toBe(true);

    const second = await loadTuiConfig({ cwd: dir, env, fingerprint: 'build-1' });
    expect(second.fromCache).toBe(true);
    expect(second.loaded).toStrictEqual(first.loaded);
    expect('problems' in second.loaded ? [] : second.loaded.warnings).toEqual([`${configFile}: colour: unknown key`]);

    // what the cache holds is what a hit gives (the schema did not run)
    const cache = JSON.parse(readFileSync(cacheFile, 'utf8'));
    writeFileSync(cacheFile, JSON.stringify({ ...cache, loaded: { ...cache.loaded, warnings: ['remembered'] } }));
    const third = await loadTuiConfig({ cwd: dir, env, fingerprint: 'build-1' });
    expect(third.fromCache).toBe(true);
    expect('problems' in third.loaded ? [] : third.loaded.warnings).toEqual(['remembered']);
  });

  it('checks again after an edit, a new global file, or from another build', async () => {
    const { dir, home, env, configFile } = project(CONFIG);
    (await loadTuiConfig({ cwd: dir, env, fingerprint: 'build-1' })).remember();
    expect((await loadTuiConfig({ cwd: dir, env, fingerprint: 'build-2' })).fromCache).toBe(false);

    writeFileSync(configFile, CONFIG.replace('dracula', 'tron'));
    const edited = await loadTuiConfig({ cwd: dir, env, fingerprint: 'build-1' });
    expect(edited.fromCache).toBe(false);
    expect('problems' in edited.loaded ? undefined : edited.loaded.config.tui.theme).toBe('tron');
    edited.remember();
    expect((await loadTuiConfig({ cwd: dir, env, fingerprint: 'build-1' })).fromCache).toBe(true);

    writeFileSync(join(home, '.opencode.json'), JSON.stringify({ autoCompact: false }));
    const withGlobal = await loadTuiConfig({ cwd: dir, env, fingerprint: 'build-1' });
    expect(withGlobal.fromCache).toBe(false);
    expect('problems' in withGlobal.loaded ? undefined : withGlobal.loaded.config.autoCompact).toBe(false);
  });

  it('reports a config error on every start and remembers nothing', async () => {
    const { dir, env, configFile, cacheFile } = project(JSON.stringify({ autoCompact: 'yes' }));
    for (let start = 0; start < 2; start++) {
      const result = await loadTuiConfig({ cwd: dir, env, fingerprint: 'build-1' });
      expect(result.loaded).toEqual({ problems: [`${configFile}: autoCompact: expected boolean, got string`] });
      result.remember();
    }
    expect(existsSync(cacheFile)).toBe(false);
  });

  it('an error after a remembered start stops the next start', async () => {
    const { dir, env, configFile } = project(CONFIG);
    (await loadTuiConfig({ cwd: dir, env, fingerprint: 'build-1' })).remember();
    writeFileSync(configFile, JSON.stringify({ autoCompact: 'yes' }));
    expect((await loadTuiConfig({ cwd: dir, env, fingerprint: 'build-1' })).loaded).toEqual({
      problems: [`${configFile}: autoCompact: expected boolean, got string`],
    });
  });

  it('writes nothing where there is no data directory, and nothing from the sources', async () => {
    const bare = project(CONFIG, false);
    (await loadTuiConfig({ cwd: bare.dir, env: bare.env, fingerprint: 'build-1' })).remember();
    expect(existsSync(join(bare.dir, '.opencode'))).toBe(false);

    const { dir, env, cacheFile } = project(CONFIG);
    const fromSources = await loadTuiConfig({ cwd: dir, env, fingerprint: undefined });
    fromSources.remember();
    expect(existsSync(cacheFile)).toBe(false);
    // a cache file from a build is not read either
    (await loadTuiConfig({ cwd: dir, env, fingerprint: 'build-1' })).remember();
    expect((await loadTuiConfig({ cwd: dir, env, fingerprint: undefined })).fromCache).toBe(false);
  });

  it('a damaged cache file is a miss', async () => {
    const { dir, env, cacheFile } = project(CONFIG);
    (await loadTuiConfig({ cwd: dir, env, fingerprint: 'build-1' })).remember();
    writeFileSync(cacheFile, '{"format": 1, "key": ');
    const result = await loadTuiConfig({ cwd: dir, env, fingerprint: 'build-1' });
    expect(result.fromCache).toBe(false);
    expect(result.loaded).toStrictEqual(loadConfig({ cwd: dir, env }));
  });
});
