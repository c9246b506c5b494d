/**
 * A code cache file whose header is JSON but not ours (issue 16, src/cli/code-cache.ts) is a broken
 * cache: compiled over and written again, as a file of garbage is. Before, a header whose lengths added
 * up to the file's size but held a negative one passed the checks, and the start died in
 * `Buffer.allocUnsafe` (ERR_OUT_OF_RANGE) as the first file loaded. Through bin/opencode and the real dist/.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanEnv, runCli } from '../support/cli.js';

/** A cache file: a 4-byte length, the JSON header, then `data`. */
function cacheFileBytes(header: unknown, data: Buffer = Buffer.alloc(0)): Buffer {
  const json = Buffer.from(JSON.stringify(header));
  const length = Buffer.alloc(4);
  length.writeUInt32LE(json.length);
  return Buffer.concat([length, json, data]);
}

/** The entry names of the cache file at `path`. */
function entryNames(path: string): string[] {
  const bytes = readFileSync(path);
  return (JSON.parse(bytes.subarray(4, 4 + bytes.readUInt32LE(0)).toString('utf8')) as [string, number][]).map(([name]) => name);
}

describe('a code cache file with a header that is not ours', () => {
  it('is compiled over and written again, whatever its entries say', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-code-cache-header-'));
    const cacheDir = join(dir, 'cache');
    let n = 0;
    const trace = () => join(dir, `trace-${n}.txt`);
    const run = () => runCli(['keybindings'], { cwd: dir, env: cleanEnv({ OPENCODE_CODE_CACHE_DIR: cacheDir, OPENCODE_STARTUP_TRACE: join(dir, `trace-${++n}.txt`) }) });
    const cacheLine = () => /(\d+) files from the cache, (\d+) compiled/.exec(readFileSync(trace(), 'utf8'))?.slice(1).map(Number);

    const first = await run();
    expect(first.code).toBe(0);
    const [, files] = cacheLine()!;
    const [cacheFile] = readdirSync(cacheDir);
    const path = join(cacheDir, cacheFile!);
    const [a, b] = entryNames(path);

    const headers: [unknown, Buffer?][] = [
      // lengths that add up to the size (no bytes after the header), one of them negative
      [[[a, -1], [b, 1]]],
      [[[`${a} --liftoff-only`, -4], [a, 4]]],
      [[[a, 4], [b, -4]]],
      [[[a, 0.5], [b, 0.5]], Buffer.from('x')],
      [[[a, '1']], Buffer.from('x')],
      [[[1, 0]]],
      [[a]],
      [{ [a!]: 0 }],
      [null],
    ];
    for (const [header, data] of headers) {
      writeFileSync(path, cacheFileBytes(header, data));
      const broken = await run();
      expect({ header, code: broken.code, stderr: broken.stderr }).toEqual({ header, code: 0, stderr: '' });
      expect(broken.stdout).toBe(first.stdout);
      expect(cacheLine()).toEqual([0, files]);
    }
    await run();
    expect(cacheLine()).toEqual([files, 0]);
  });
});
