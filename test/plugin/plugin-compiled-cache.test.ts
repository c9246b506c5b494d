/**
 * Plugin files transpiled once, for a fast start: a plugin seen before runs from its copy in the
 * data directory without jiti being imported (checked in a fresh process through Node's module cache,
 * not by timing); an edited plugin is transpiled again; a plugin that imports something other than
 * `opencode/plugin` or a built-in still goes through jiti, cached or not.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { importsAreNative, PLUGIN_CACHE_DIR } from '../../src/plugin/compiled-cache.js';

const PROBE = fileURLToPath(new URL('./fixtures/load-plugins-probe.ts', import.meta.url));

interface Probe {
  outputs: Record<string, string>;
  failed: string[];
  jitiLoaded: boolean;
}

/** Loads the project's custom tools in a new process (as each `opencode` start does). */
async function loadInNewProcess(dir: string): Promise<Probe> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', PROBE, dir]);
  return JSON.parse(stdout) as Probe;
}

/** A TypeScript plugin using types, top-level await, a built-in, import.meta.url and the helpers' zod. */
function plugin(word: string): string {
  return `import { tool, definePlugin, z } from 'opencode/plugin';
import { basename } from 'node:path';
import os from 'node:os';
type Word = string;
const word: Word = await Promise.resolve('${word}');
export default definePlugin(async () => ({
  tools: {
    say: tool({
      description: 'Says a word.',
      args: z.object({ q: z.string().describe('query') }),
      execute: async ({ q }: { q: string }) => [word, q, basename(new URL(import.meta.url).pathname), typeof os.platform()].join(' '),
    }),
  },
}));
`;
}

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'opencode-plugin-cache-'));
  mkdirSync(join(dir, '.opencode', 'plugins'), { recursive: true });
  return dir;
}

describe('compiled plugin cache', () => {
  it('runs a cached plugin without importing jiti, and transpiles an edited one again', async () => {
    const dir = project();
    const file = join(dir, '.opencode', 'plugins', 'say.ts');
    const cacheDir = join(dir, '.opencode', PLUGIN_CACHE_DIR);
    writeFileSync(file, plugin('one'));

    // first start: transpiled by jiti, stored
    expect(await loadInNewProcess(dir)).toEqual({
      outputs: { say: 'one x say.ts string' },
      failed: [],
      jitiLoaded: true,
    });
    const stored = readdirSync(cacheDir);
    expect(stored).toHaveLength(1);

    // second start: the same result, and jiti never loaded
    expect(await loadInNewProcess(dir)).toEqual({
      outputs: { say: 'one x say.ts string' },
      failed: [],
      jitiLoaded: false,
    });
    expect(readdirSync(cacheDir)).toEqual(stored);

    // an edit of the same size: transpiled again, the old copy removed
    writeFileSync(file, plugin('two'));
    expect(await loadInNewProcess(dir)).toEqual({
      outputs: { say: 'two x say.ts string' },
      failed: [],
      jitiLoaded: true,
    });
    const after = readdirSync(cacheDir);
    expect(after).toHaveLength(1);
    expect(after).not.toEqual(stored);
    expect(await loadInNewProcess(dir)).toEqual({
      outputs: { say: 'two x say.ts string' },
      failed: [],
      jitiLoaded: false,
    });
  });

  it('loads a plugin with a relative TypeScript import through jiti every time', async () => {
    const dir = project();
    mkdirSync(join(dir, '.opencode', 'lib'));
    writeFileSync(
      join(dir, '.opencode', 'lib', 'shout.ts'),
      'export const shout = (s: string): string => s.toUpperCase();\n',
    );
    writeFileSync(
      join(dir, '.opencode', 'plugins', 'loud.ts'),
      "import { shout } from '../lib/shout.ts';\nexport default async () => ({ tools: { loud: { description: 'Loud.', args: {}, execute: async (a: { q: string }) => shout(a.q) } } });\n",
    );
    expect(await loadInNewProcess(dir)).toEqual({ outputs: { loud: 'X' }, failed: [], jitiLoaded: true });
    expect(await loadInNewProcess(dir)).toEqual({ outputs: { loud: 'X' }, failed: [], jitiLoaded: true });
  });

  it('leaves a CommonJS .js plugin (sloppy mode allowed) to jiti', async () => {
    const dir = project();
    // a plain function's `this` is undefined in strict mode only: a transpiled copy ("use strict") would say so
    writeFileSync(
      join(dir, '.opencode', 'plugins', 'old.js'),
      "const os = require('node:os');\nfunction mode() { return this === undefined ? 'strict' : 'sloppy'; }\nmodule.exports = async () => ({ tools: { old: { description: 'Old.', args: {}, execute: async (a) => [a.q, mode(), typeof os.platform()].join(' ') } } });\n",
    );
    for (let i = 0; i < 2; i++)
      expect(await loadInNewProcess(dir)).toEqual({
        outputs: { old: 'x sloppy string' },
        failed: [],
        jitiLoaded: true,
      });
  });

  it('a plugin with a syntax error is reported at every start and nothing is stored', async () => {
    const dir = project();
    writeFileSync(join(dir, '.opencode', 'plugins', 'broken.ts'), 'export default async () => ({ tools: {\n');
    for (let i = 0; i < 2; i++) {
      const probe = await loadInNewProcess(dir);
      expect(probe.outputs).toEqual({});
      expect(probe.failed).toHaveLength(1);
      expect(probe.failed[0]).toMatch(/^\.opencode\/plugins\/broken\.ts: failed at load: /);
    }
    expect(
      readdirSync(join(dir, '.opencode')).includes(PLUGIN_CACHE_DIR)
        ? readdirSync(join(dir, '.opencode', PLUGIN_CACHE_DIR))
        : [],
    ).toEqual([]);
  });
});

describe('importsAreNative', () => {
  // jiti's output (async mode) → whether it can run without jiti
  const cases: [string, boolean][] = [
    ['var _plugin = await jitiImport("opencode/plugin");', true],
    ['var _fs = await jitiImport("node:fs"); const p = require(\'path\');', true],
    ["const m = await Promise.resolve().then(() => jitiImport('./helper.ts'));", false],
    ['var _zod = await jitiImport("zod");', false],
    ['const m = await jitiImport(name);', false],
    ["const r = jitiESMResolve('node:fs');", false],
    ['const s = `${require(`fs`)}`;', true],
    ['const q = require(`./x${n}`);', false],
  ];
  it.each(cases)('%s → %s', (code, native) => {
    expect(importsAreNative(code)).toBe(native);
  });
});
