/**
 * The tool-file cache: a start with unchanged files reuses what checking them gave; any edit is seen at
 * the next start; entries of files that are gone are dropped; a damaged cache is ignored.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCustomTools } from '../../src/custom/load.js';
import { TOOL_FILE_CACHE_NAME } from '../../src/custom/tool-file-cache.js';
import { builtinTools } from '../../src/tools/index.js';

describe('tool file cache', () => {
  it('reuses results for unchanged files and sees every change', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-cache-'));
    const data = join(dir, '.opencode');
    const tools = join(data, 'tools');
    mkdirSync(tools, { recursive: true });
    writeFileSync(join(tools, 'a.yaml'), 'name: a\ndescription: A.\ncommand: [echo, a]\n');
    writeFileSync(join(tools, 'b.yaml'), 'name: b\ndescription: B.\ncommand: [echo, b]\n');
    const load = () =>
      loadCustomTools({
        projectDir: dir,
        config: { tools: {}, plugins: [] },
        registry: builtinTools(),
        env: { HOME: join(dir, 'home') },
        cacheDir: data,
      });
    const cached = () =>
      Object.keys((JSON.parse(readFileSync(join(data, TOOL_FILE_CACHE_NAME), 'utf8')) as { entries: object }).entries)
        .length;

    expect((await load()).tools.map((t) => t.name)).toEqual(['a', 'b']);
    expect(cached()).toBe(2);
    expect((await load()).tools.map((t) => t.name)).toEqual(['a', 'b']);

    // an edit of one character (same size) is a different text: checked again
    writeFileSync(join(tools, 'a.yaml'), 'name: c\ndescription: A.\ncommand: [echo, a]\n');
    rmSync(join(tools, 'b.yaml'));
    const report = await load();
    expect(report.tools.map((t) => t.name)).toEqual(['c']);
    expect(cached()).toBe(1);

    writeFileSync(join(data, TOOL_FILE_CACHE_NAME), '{ damaged');
    expect((await load()).tools.map((t) => t.name)).toEqual(['c']);
    expect(cached()).toBe(1);
  });
});
