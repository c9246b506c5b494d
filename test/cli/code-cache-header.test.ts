/**
 * A code cache file whose header is JSON but not ours (src/cli/code-cache.ts) is a broken
 * cache: compiled over and written again, as a file of garbage is. Before, a header whose lengths added
 * up to the file's size but held a negative one passed the checks, and the start died in
 * `Buffer.allocUnsafe` (ERR_OUT_OF_RANGE) as the first file loaded. Through bin/opencode and the real dist/.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cachedRuns } from '../support/code-cache.js';

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
  return (JSON.parse(bytes.subarray(4, 4 + bytes.readUInt32LE(0)).toString('utf8')) as [string, number][]).map(
    ([name]) => name,
  );
}

describe('a code cache file with a header that is not ours', () => {
  it('is compiled over and written again, whatever its entries say', async () => {
    const { cacheDir, run: runWith } = cachedRuns('opencode-code-cache-header-');
    const run = () => runWith(['keybindings']);
    const first = await run();
    expect(first.code).toBe(0);
    const files = first.counts().compiled;
    const [cacheFile] = readdirSync(cacheDir);
    const path = join(cacheDir, cacheFile!);
    const [a, b] = entryNames(path);

    const headers: [unknown, Buffer?][] = [
      // lengths that add up to the size (no bytes after the header), one of them negative
      [
        [
          [a, -1],
          [b, 1],
        ],
      ],
      [
        [
          [`${a} --liftoff-only`, -4],
          [a, 4],
        ],
      ],
      [
        [
          [a, 4],
          [b, -4],
        ],
      ],
      [
        [
          [a, 0.5],
          [b, 0.5],
        ],
        Buffer.from('x'),
      ],
      [[[a, '1']], Buffer.from('x')],
      // no checksum (the layout before it), or one that is not an unsigned 32-bit integer
      [[[a, 4]], Buffer.from('code')],
      [[[a, 4, -1]], Buffer.from('code')],
      [[[a, 4, 2 ** 32]], Buffer.from('code')],
      [[[a, 4, '1']], Buffer.from('code')],
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
      expect(broken.counts()).toEqual({ fromCache: 0, compiled: files });
    }
    expect((await run()).counts()).toEqual({ fromCache: files, compiled: 0 });
  });
});
