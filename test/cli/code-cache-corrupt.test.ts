/**
 * A code cache file whose entries' bytes changed after it was written (a disk fault, a stray write) while
 * its header stayed whole (src/cli/code-cache.ts). V8 in Node's release builds does not check
 * cached code against a checksum: such bytes passed its sanity checks and the start died in a V8 fatal
 * error ("unreachable code", SIGTRAP, exit 133), every start, as nothing wrote the file again. Each entry
 * now carries a checksum: a changed one is compiled over and the file written again. Through bin/opencode
 * and the real dist/.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { entryChecksum } from '../../src/cli/code-cache.js';
import { cachedRuns } from '../support/code-cache.js';

describe('entryChecksum', () => {
  it('is FNV-1a over the 32-bit little-endian words, then the last bytes, unsigned', () => {
    expect(entryChecksum(new Uint8Array(0))).toBe(0x811c9dc5); // the offset basis: nothing hashed
    // one word, 0x00000001: (0x811c9dc5 ^ 1) * 0x01000193 mod 2^32
    expect(entryChecksum(Uint8Array.of(1, 0, 0, 0))).toBe(
      Number((BigInt((0x811c9dc5 ^ 1) >>> 0) * 0x01000193n) % 2n ** 32n),
    );
    // a byte past the last word is hashed alone: the FNV-1a test vector of "a"
    expect(entryChecksum(Uint8Array.of(0x61))).toBe(0xe40c292c);
  });

  it('gives the same for the same bytes anywhere in memory, and another for one bit changed', () => {
    const bytes = Buffer.from(Array.from({ length: 4099 }, (_, i) => (i * 7919) % 251));
    const unaligned = Buffer.alloc(bytes.length + 1).subarray(1);
    bytes.copy(unaligned);
    expect(unaligned.byteOffset % 4).not.toBe(0);
    expect(entryChecksum(unaligned)).toBe(entryChecksum(bytes));
    for (const at of [0, 1, 2048, 4096, 4098]) {
      const changed = Buffer.from(bytes);
      changed[at]! ^= 0x10;
      expect(entryChecksum(changed)).not.toBe(entryChecksum(bytes));
    }
  });
});

describe('a code cache file whose entries changed after it was written', () => {
  it('is compiled over, gives the same output, and the next run takes every file from the cache again', async () => {
    const { cacheDir, run } = cachedRuns('opencode-code-cache-corrupt-');
    const first = await run(['keybindings']);
    expect(first.code).toBe(0);
    const files = first.counts().compiled;
    const [cacheFile] = readdirSync(cacheDir);
    const path = join(cacheDir, cacheFile!);
    const bytes = readFileSync(path);
    const entriesStart = 4 + bytes.readUInt32LE(0);
    // one byte in every KiB of the entries flipped, the header as written
    for (let at = entriesStart + 512; at < bytes.length; at += 1024) bytes[at]! ^= 0xff;
    writeFileSync(path, bytes);

    const corrupted = await run(['keybindings']);
    expect({ code: corrupted.code, signal: corrupted.signal, stderr: corrupted.stderr }).toEqual({
      code: 0,
      signal: null,
      stderr: '',
    });
    expect(corrupted.stdout).toBe(first.stdout);
    expect(corrupted.counts()).toEqual({ fromCache: 0, compiled: files });
    expect((await run(['keybindings'])).counts()).toEqual({ fromCache: files, compiled: 0 });
  });
});
