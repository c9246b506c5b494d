/**
 * A V8 flag in NODE_OPTIONS (e.g. `--max-old-space-size=4096`, which people set for all their Node
 * programs) changes V8's flag hash as one on the command line does, so the code cache keeps a file for
 * each (src/cli/code-cache.ts). Before, the file was named by the command line's flags alone: runs with
 * and without such a NODE_OPTIONS (two terminals, an editor's) rejected and overwrote each other's code,
 * and each compiled every file. Through bin/opencode and the real dist/.
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cachedRuns } from '../support/code-cache.js';

describe('the code cache and NODE_OPTIONS', () => {
  it('runs with and without a V8 flag in NODE_OPTIONS each keep their code', async () => {
    const { cacheDir, run } = cachedRuns('opencode-code-cache-node-options-');
    const start = async (nodeOptions: string) => {
      const started = await run(['keybindings'], { env: { NODE_OPTIONS: nodeOptions } });
      expect(started.code).toBe(0);
      return started.counts();
    };

    const plain = await start('');
    expect(plain.fromCache).toBe(0);
    const flagged = await start('--max-old-space-size=2048');
    expect(flagged).toEqual({ fromCache: 0, compiled: plain.compiled });
    expect(await start('')).toEqual({ fromCache: plain.compiled, compiled: 0 });
    expect(await start('--max-old-space-size=2048')).toEqual({ fromCache: plain.compiled, compiled: 0 });
    expect(readdirSync(cacheDir).filter((name) => name.startsWith('keybindings-'))).toHaveLength(2);
  });
});
