/**
 * The build's patch of Ink's frame-to-text step (scripts/ink-output-patch.mjs): caches kept
 * from frame to frame must give exactly the text Ink's own Output gives. Both versions of
 * `ink/build/output.js` are bundled here with esbuild (as scripts/build.mjs does) and fed the same
 * frames: typing into an editor line under a screen of coloured text, clipped boxes, wide characters,
 * rows that change back, and enough distinct lines to empty the caches.
 */
import chalk, { Chalk } from 'chalk';
import { build } from 'esbuild';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error a plain .mjs build script without types
import { INK_OUTPUT_PATCHES, OUTPUT_CACHE_LINES } from '../../scripts/ink-output-patch.mjs';

interface Patch {
  from: string;
  to: string;
}
interface OutputLike {
  write(
    x: number,
    y: number,
    text: string,
    options: { transformers: ((line: string, index: number) => string)[] },
  ): void;
  clip(clip: { x1?: number; x2?: number; y1?: number; y2?: number }): void;
  unclip(): void;
  get(): { output: string; height: number };
}
type OutputClass = new (options: { width: number; height: number }) => OutputLike;

const inkOutputFile = join(dirname(createRequire(import.meta.url).resolve('ink')), 'output.js');
const colour = new Chalk({ level: 3 });
let dir: string;
let original: OutputClass;
let patched: OutputClass;

/** Bundles Ink's output.js with `patches` applied; returns its Output class. */
async function bundleOutput(name: string, patches: Patch[]): Promise<OutputClass> {
  let source = readFileSync(inkOutputFile, 'utf8');
  for (const patch of patches) {
    expect(source.includes(patch.from), `patch text not found in Ink's output.js: ${patch.from}`).toBe(true);
    source = source.replace(patch.from, patch.to);
  }
  const result = await build({
    stdin: { contents: source, resolveDir: dirname(inkOutputFile), sourcefile: 'output.js', loader: 'js' },
    bundle: true,
    format: 'esm',
    platform: 'node',
    write: false,
  });
  const file = join(dir, `${name}.mjs`);
  writeFileSync(file, result.outputFiles[0]!.text);
  return ((await import(pathToFileURL(file).href)) as { default: OutputClass }).default;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'opencode-ink-output-'));
  original = await bundleOutput('original', []);
  patched = await bundleOutput('patched', INK_OUTPUT_PATCHES as Patch[]);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** One frame: what the app's components write (a sidebar, a clipped message area, the editor, a status bar). */
function drawFrame(output: OutputLike, editor: string, messages: string[], scroll: number): void {
  const none = { transformers: [] };
  output.write(0, 0, colour.bold.cyan('OpenCode') + ' ' + colour.dim('v1.2.3'), none);
  // the message area: clipped on both axes, its text wider and taller than the box
  output.clip({ x1: 2, x2: 50, y1: 2, y2: 12 });
  output.write(2 - scroll, 2, messages.join('\n'), none);
  output.unclip();
  for (let y = 2; y < 14; y++)
    output.write(
      52,
      y,
      colour.gray('│ ') + (y === 3 ? colour.green('● typescript ready') : colour.dim(`row ${y}`)),
      none,
    );
  output.write(0, 14, colour.blue('> ') + editor + colour.inverse(' '), {
    transformers: [(line) => line + colour.dim(' ·')],
  });
  output.write(0, 15, colour.bgBlue.white(' ctrl+/ help ') + ' ' + colour.yellow('Claude Sonnet'), none);
}

function frames(
  Output: OutputClass,
  count: number,
  messagesAt: (frame: number) => string[],
  editorAt: (frame: number) => string,
  scrollAt: (frame: number) => number,
): string[] {
  const texts: string[] = [];
  for (let frame = 0; frame < count; frame++) {
    const output = new Output({ width: 80, height: 17 });
    drawFrame(output, editorAt(frame), messagesAt(frame), scrollAt(frame));
    texts.push(output.get().output);
  }
  return texts;
}

const MESSAGES = [
  colour.bold('You') + ' fix the test in ' + colour.underline('src/add.ts'),
  'The sum is ' +
    colour.red('wrong') +
    ': ' +
    colour.bgYellow.black('a - b') +
    ' should be a + b, and this line is wider than the box it is drawn in',
  '漢字 wide characters and an emoji 🙂 mid-line, cut by the clip',
  colour.italic.magenta('a styled run that ') + 'ends plain',
  '',
  '   indented',
];

describe("Ink's Output with the build's caches", () => {
  it("gives the same text as Ink's own while a person types and the view scrolls", () => {
    const editorAt = (frame: number) => 'fix the sum'.slice(0, frame % 12) + (frame >= 24 ? colour.red('!') : '');
    const scrollAt = (frame: number) => (frame % 10 === 9 ? 3 : 0);
    const messagesAt = (frame: number) => (frame % 7 === 6 ? [...MESSAGES].reverse() : MESSAGES);
    const mine = frames(patched, 40, messagesAt, editorAt, scrollAt);
    expect(mine).toEqual(frames(original, 40, messagesAt, editorAt, scrollAt));
    // and the text itself, as Ink writes it (a frame's trailing blanks trimmed)
    expect(chalk.reset(mine[5]!.split('\n')[14]!).replace(/\u001b\[[0-9;]*m/g, '')).toBe('> fix t  ·');
  });

  it('gives the same text across the point where its caches are emptied (a long streamed reply)', () => {
    // each frame new lines, as a reply streams: the caches pass OUTPUT_CACHE_LINES and start again
    const lines = (frame: number) =>
      Array.from({ length: 12 }, (_, i) => `${colour.green(`line ${frame * 12 + i}`)} of the reply ${'·'.repeat(i)}`);
    const count = Math.ceil((OUTPUT_CACHE_LINES as number) / 12) + 5;
    const mine = frames(
      patched,
      count,
      lines,
      () => 'x',
      () => 0,
    );
    expect(mine).toEqual(
      frames(
        original,
        count,
        lines,
        () => 'x',
        () => 0,
      ),
    );
  });
});
