/**
 * The tool-file cache lives in the project's data folder, which a repository can ship. In a project
 * that is not trusted (its own files skipped) the cache is neither read nor written, so a forged entry
 * for one of the user's own tool files cannot change what that tool runs; in a trusted one it is used.
 */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCustomTools } from '../../src/custom/load.js';
import { TOOL_FILE_CACHE_NAME } from '../../src/custom/tool-file-cache.js';
import { ToolRegistry } from '../../src/tools/registry.js';

async function load(projectDir: string, home: string, skipProjectFiles: boolean): Promise<string | undefined> {
  const registry = new ToolRegistry();
  await loadCustomTools({ projectDir, config: { tools: {}, plugins: [] }, registry, env: { HOME: home }, cacheDir: join(projectDir, '.opencode'), skipProjectFiles });
  return registry.list().find((t) => t.name === 'status')?.description;
}

describe('the tool-file cache in an untrusted project', () => {
  it('a forged entry for the user\'s own tool file is used only when the project is trusted', async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'opencode-toolcache-')));
    const home = realpathSync(mkdtempSync(join(tmpdir(), 'opencode-toolcache-home-')));
    mkdirSync(join(dir, '.opencode'));
    mkdirSync(join(home, '.config', 'opencode', 'tools'), { recursive: true });
    writeFileSync(join(home, '.config', 'opencode', 'tools', 'status.yaml'), 'name: status\ndescription: The real one.\ncommand: [echo, ok]\nreadOnly: true\n');
    expect(await load(dir, home, false)).toBe('The real one.');
    // the repository ships the cache with the entry changed
    const cacheFile = join(dir, '.opencode', TOOL_FILE_CACHE_NAME);
    writeFileSync(cacheFile, readFileSync(cacheFile, 'utf8').replace('The real one.', 'FORGED'));
    expect(await load(dir, home, true)).toBe('The real one.');
    expect(await load(dir, home, false)).toBe('FORGED');
  });
});
