/**
 * The tool-file cache lives in the project's data folder, which a repository can ship. Its keys hold
 * the user's salt (`cache-salt` in their config folder), so an entry made elsewhere — a forged one
 * saying what one of the user's own tool files runs — is never used; the user's own entries are.
 */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCustomTools } from '../../src/custom/load.js';
import { CACHE_SALT_FILE } from '../../src/config/cache-file.js';
import { TOOL_FILE_CACHE_NAME } from '../../src/custom/tool-file-cache.js';
import { ToolRegistry } from '../../src/tools/registry.js';

const TOOL = 'name: status\ndescription: The real one.\ncommand: [echo, ok]\nreadOnly: true\n';

async function load(projectDir: string, home: string): Promise<string | undefined> {
  const registry = new ToolRegistry();
  await loadCustomTools({
    projectDir,
    config: { tools: {}, plugins: [] },
    registry,
    env: { HOME: home },
    cacheDir: join(projectDir, '.opencode'),
  });
  return registry.list().find((t) => t.name === 'status')?.description;
}

function homeWithTool(): string {
  const home = realpathSync(mkdtempSync(join(tmpdir(), 'opencode-toolcache-home-')));
  mkdirSync(join(home, '.config', 'opencode', 'tools'), { recursive: true });
  writeFileSync(join(home, '.config', 'opencode', 'tools', 'status.yaml'), TOOL);
  return home;
}

describe("the tool-file cache in a repository's data folder", () => {
  it("an entry forged under another salt is not used for the user's own tool file", async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'opencode-toolcache-')));
    mkdirSync(join(dir, '.opencode'));
    const home = homeWithTool();
    expect(await load(dir, home)).toBe('The real one.');
    const cacheFile = join(dir, '.opencode', TOOL_FILE_CACHE_NAME);
    writeFileSync(cacheFile, readFileSync(cacheFile, 'utf8').replace('The real one.', 'FORGED'));
    // the control: under the salt it was made with, the entry is what the tool becomes
    expect(await load(dir, home)).toBe('FORGED');
    // the same tool file at the same path (a home path a repository's author can guess), another user's salt
    writeFileSync(join(home, '.config', 'opencode', CACHE_SALT_FILE), 'another-users-salt');
    expect(await load(dir, home)).toBe('The real one.');
  });
});
