/**
 * The build's patch of ansi-tokenize's styledCharsToString (scripts/ansi-tokenize-patch.mjs, issue
 * 16): a cell styled as its left neighbour skips the style diff, and the text must be exactly what
 * the original writes. Both versions of `@alcalzone/ansi-tokenize` are bundled here with esbuild (as
 * scripts/build.mjs does) and turn the same lines into text: a status bar, runs of one style, nested
 * and reset styles, bold and dim together, colours changing mid-run, links, and random mixes.
 */
import { Chalk } from 'chalk';
import { build } from 'esbuild';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error a plain .mjs build script without types
import { ANSI_TOKENIZE_PATCHES } from '../../scripts/ansi-tokenize-patch.mjs';

interface AnsiTokenize {
  tokenize(text: string): unknown[];
  styledCharsFromTokens(tokens: unknown[]): unknown[];
  styledCharsToString(chars: unknown[]): string;
}

const packageDir = dirname(createRequire(import.meta.url).resolve('@alcalzone/ansi-tokenize/package.json'));
const colour = new Chalk({ level: 3 });
let dir: string;
let original: AnsiTokenize;
let patched: AnsiTokenize;

/** Bundles ansi-tokenize with `patches` applied to build/styledChars.js. */
async function bundle(name: string, patches: { from: string; to: string }[]): Promise<AnsiTokenize> {
  const result = await build({
    entryPoints: [join(packageDir, 'build', 'index.js')],
    bundle: true,
    format: 'esm',
    platform: 'node',
    write: false,
    plugins: [
      {
        name: 'patch',
        setup(b) {
          b.onLoad({ filter: /[\\/]build[\\/]styledChars\.js$/ }, (args) => {
            let source = readFileSync(args.path, 'utf8');
            for (const patch of patches) {
              expect(source.includes(patch.from), `patch text not found in styledChars.js: ${patch.from}`).toBe(true);
              source = source.replace(patch.from, patch.to);
            }
            return { contents: source, loader: 'js' };
          });
        },
      },
    ],
  });
  const file = join(dir, `${name}.mjs`);
  writeFileSync(file, result.outputFiles[0]!.text);
  return (await import(pathToFileURL(file).href)) as AnsiTokenize;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'opencode-ansi-tokenize-'));
  original = await bundle('original', []);
  patched = await bundle('patched', ANSI_TOKENIZE_PATCHES);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The line as Ink writes it: tokenized, turned into cells, and the cells into text. */
const text = (lib: AnsiTokenize, line: string) =>
  lib.styledCharsToString(lib.styledCharsFromTokens(lib.tokenize(line)));

/** A random line of styled runs (seeded, so a failure repeats). */
function randomLine(seed: number): string {
  let state = seed;
  const next = (n: number) => ((state = (state * 1103515245 + 12345) % 2147483648), state % n);
  const styles = [
    (s: string) => colour.red(s),
    (s: string) => colour.bold(s),
    (s: string) => colour.dim(s),
    (s: string) => colour.bold.dim(s),
    (s: string) => colour.bgHex('#303030').hex('#e0e0e0')(s),
    (s: string) => colour.italic.underline(s),
    (s: string) => colour.inverse(s),
    (s: string) => s,
    (s: string) => `\u001b[0m${s}`,
  ];
  let line = '';
  for (let run = next(8) + 1; run > 0; run--) {
    const inner = 'abc ─·…'.slice(next(4), next(4) + 4).repeat(next(5) + 1);
    line += styles[next(styles.length)]!(next(3) === 0 ? styles[next(styles.length)]!(inner) + inner : inner);
  }
  return line;
}

describe('ansi-tokenize with the style diff skipped between equal cells', () => {
  it('writes the same text for the lines a screen is made of', () => {
    const lines = [
      '',
      'plain text with no style at all',
      colour.bgHex('#1e1e1e').hex('#d0d0d0')(' ctrl+/ help '.padEnd(80)) + colour.bold(' Claude Sonnet 5.5 '),
      colour.dim('─'.repeat(120)),
      `${colour.red('red')}${colour.red('red again')}${colour.blue('blue')} plain ${colour.bold.red('bold red')}${colour.red('red')}`,
      `${colour.bold('bold')}${colour.bold.dim('bold dim')}${colour.dim('dim')}${colour.bold('bold')}`,
      `\u001b]8;;https://example.com\u0007link\u001b]8;;\u0007 ${colour.underline('under')}`,
      `${colour.inverse('> ')}typed text${colour.inverse(' ')}`,
    ];
    for (const line of lines) expect(text(patched, line)).toBe(text(original, line));
  });

  it('writes the same text for 500 random lines of styled runs', () => {
    for (let seed = 1; seed <= 500; seed++) {
      const line = randomLine(seed);
      expect(text(patched, line), JSON.stringify(line)).toBe(text(original, line));
    }
  });
});
