/**
 * The build's patch of string-width (scripts/string-width-patch.mjs): the RGI emoji set is
 * built only for a grapheme that may be an emoji, and every width stays what string-width gives.
 * Both versions of `string-width/index.js` are bundled here with esbuild (as scripts/build.mjs does)
 * and measure every code point the set matches, every emoji kind of sequence (keycaps, flags, skin
 * tones, tags, ZWJ, text characters with U+FE0F), and a sample of all the others.
 */
import { build } from 'esbuild';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error a plain .mjs build script without types
import { STRING_WIDTH_FILE, STRING_WIDTH_PATCHES } from '../../scripts/string-width-patch.mjs';

type StringWidth = (text: string, options?: { ambiguousIsNarrow?: boolean }) => number;

let dir: string;
let original: StringWidth;
let patched: StringWidth;

/** Bundles string-width with `patches` applied; returns its default export. */
async function bundleStringWidth(name: string, patches: { from: string; to: string }[]): Promise<StringWidth> {
  let source = readFileSync(STRING_WIDTH_FILE as string, 'utf8');
  for (const patch of patches) {
    expect(source.includes(patch.from), `patch text not found in string-width: ${patch.from}`).toBe(true);
    source = source.replace(patch.from, patch.to);
  }
  const result = await build({
    stdin: { contents: source, resolveDir: dirname(STRING_WIDTH_FILE as string), sourcefile: 'index.js', loader: 'js' },
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    write: false,
  });
  const file = join(dir, `${name}.mjs`);
  writeFileSync(file, result.outputFiles[0]!.text);
  return ((await import(pathToFileURL(file).href)) as { default: StringWidth }).default;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'opencode-string-width-'));
  original = await bundleStringWidth('original', []);
  patched = await bundleStringWidth('patched', STRING_WIDTH_PATCHES);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const rgiEmoji = new RegExp('^\\p{RGI_Emoji}$', 'v');
const emojiCodePoints: number[] = [];
for (let cp = 0; cp <= 0x10ffff; cp++) if (/\p{Emoji}/u.test(String.fromCodePoint(cp))) emojiCodePoints.push(cp);

/** Where the two disagree, as `U+XXXX…: original → patched` lines (both width options). */
function differences(texts: Iterable<string>): string[] {
  const lines: string[] = [];
  for (const text of texts) {
    for (const ambiguousIsNarrow of [true, false]) {
      const a = original(text, { ambiguousIsNarrow });
      const b = patched(text, { ambiguousIsNarrow });
      if (a !== b) lines.push(`${[...text].map((c) => `U+${c.codePointAt(0)!.toString(16)}`).join(' ')}: ${a} → ${b}`);
    }
  }
  return lines;
}

describe('string-width with the emoji set built on demand', () => {
  it('measures every single code point the emoji set matches as before', () => {
    const matched: string[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      const text = String.fromCodePoint(cp);
      if (rgiEmoji.test(text)) matched.push(text);
    }
    expect(matched.length).toBeGreaterThan(1000);
    expect(differences(matched)).toEqual([]);
  });

  it('measures emoji sequences as before: keycaps, flags, skin tones, tags, ZWJ, text characters with U+FE0F', () => {
    const sequences: string[] = [];
    for (const base of '0123456789#*') sequences.push(`${base}\u20e3`, `${base}\ufe0f\u20e3`, `${base}\ufe0f`);
    for (let a = 0x1f1e6; a <= 0x1f1ff; a++)
      for (let b = 0x1f1e6; b <= 0x1f1ff; b++) sequences.push(String.fromCodePoint(a, b));
    for (const cp of emojiCodePoints) {
      sequences.push(String.fromCodePoint(cp, 0xfe0f), String.fromCodePoint(cp, 0xfe0e));
      for (let tone = 0x1f3fb; tone <= 0x1f3ff; tone++) sequences.push(String.fromCodePoint(cp, tone));
    }
    sequences.push(
      '🏴󠁧󠁢󠁥󠁮󠁧󠁿', // England: black flag + tags
      '👩‍👩‍👧‍👦', // family: ZWJ sequence
      '🧑🏽‍🤝‍🧑🏻', // people holding hands with skin tones
      '🏳️‍🌈', // rainbow flag: text character + FE0F + ZWJ
      '❤️‍🔥',
      '👁️‍🗨️',
    );
    expect(sequences.filter((s) => rgiEmoji.test(s)).length).toBeGreaterThan(1000);
    expect(differences(sequences)).toEqual([]);
  });

  it('measures text as before: a sample of every plane, box drawing, CJK, Hangul, combining marks', () => {
    const texts: string[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp += 37) texts.push(String.fromCodePoint(cp));
    texts.push(
      '─'.repeat(120),
      'Thinking… · 12 files',
      '한국어 텍스트',
      '日本語のテキスト',
      'e\u0301',
      'नमस्ते',
      'a😀b',
      'x\u200dy',
      '\u001b[31mred\u001b[39m ─',
    );
    expect(differences(texts)).toEqual([]);
  });
});
