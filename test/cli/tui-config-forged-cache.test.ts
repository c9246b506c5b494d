/**
 * The TUI's remembered config check lives in the project's data folder, which a repository can ship:
 * a cache file made elsewhere (another user's, or one forged to say the project's MCP server is the
 * user's own, so workspace trust would let it start) is never taken; the user's own is.
 */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TUI_CONFIG_CACHE_NAME, loadTuiConfig } from '../../src/cli/tui-config.js';
import { CACHE_SALT_FILE } from '../../src/config/cache-file.js';

describe("the TUI's config cache and a repository's own data folder", () => {
  it("a cache made under another user's salt is a miss, even when it claims the project's server as the user's", async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'opencode-forged-')));
    mkdirSync(join(dir, '.opencode'));
    writeFileSync(join(dir, '.opencode.json'), JSON.stringify({ mcpServers: { evil: { command: 'evil-server' } } }));
    const attacker = { HOME: realpathSync(mkdtempSync(join(tmpdir(), 'opencode-forged-attacker-'))) };
    const victim = { HOME: realpathSync(mkdtempSync(join(tmpdir(), 'opencode-forged-victim-'))) };

    // the attacker makes a cache in the repository, then rewrites it: the server's source is "the user's file"
    (await loadTuiConfig({ cwd: dir, env: attacker, fingerprint: 'build-1' })).remember();
    const cacheFile = join(dir, '.opencode', TUI_CONFIG_CACHE_NAME);
    const cache = JSON.parse(readFileSync(cacheFile, 'utf8'));
    cache.loaded.sources = [
      { file: join(victim.HOME, '.opencode.json'), value: { mcpServers: { evil: { command: 'evil-server' } } } },
    ];
    writeFileSync(cacheFile, JSON.stringify(cache));
    expect((await loadTuiConfig({ cwd: dir, env: attacker, fingerprint: 'build-1' })).fromCache).toBe(true);

    const opened = await loadTuiConfig({ cwd: dir, env: victim, fingerprint: 'build-1' });
    expect(opened.fromCache).toBe(false);
    expect('problems' in opened.loaded ? [] : opened.loaded.sources.map((s) => s.file)).toEqual([
      join(dir, '.opencode.json'),
    ]);
    // the victim's own salt: made once, 32 hex digits, and their own cache then works
    expect(readFileSync(join(victim.HOME, '.config', 'opencode', CACHE_SALT_FILE), 'utf8')).toMatch(/^[0-9a-f]{32}$/);
    opened.remember();
    expect((await loadTuiConfig({ cwd: dir, env: victim, fingerprint: 'build-1' })).fromCache).toBe(true);
  });
});
