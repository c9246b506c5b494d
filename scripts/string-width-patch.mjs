// A build-time patch of string-width (node_modules/string-width/index.js: Ink's text measure, and
// ours), applied by scripts/build.mjs like its other dependency patches ({ filter, from, to } text
// replacements; the build fails when a `from` text is gone). Its own file so that
// test/tui/string-width-patch.test.ts can measure every code point with and without it.
//
// string-width tests every grapheme of a non-ASCII string against /^\p{RGI_Emoji}$/v. V8 builds that
// set of strings when the module loads and compiles it at its first test: ~70 ms of CPU of the TUI's
// start on this machine, for a first screen whose only non-ASCII characters are ─ … ·.
// Every RGI emoji holds a non-ASCII Emoji code point or the keycap mark U+20E3 (Unicode TS #51: the
// bases of its sequences are Emoji characters, flags are Regional Indicators, keycaps end in U+20E3,
// and only keycap bases are ASCII), so a grapheme without one cannot match: it skips the test, and
// the set is built at the first grapheme that may be an emoji. The widths are the same.
import { fileURLToPath } from 'node:url';

/** The string-width of package.json (wrap-ansi keeps an older one of its own, without the set). */
export const STRING_WIDTH_FILE = fileURLToPath(import.meta.resolve('string-width'));
/** esbuild's filter for that file alone. */
export const STRING_WIDTH = new RegExp(`^${STRING_WIDTH_FILE.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
export const STRING_WIDTH_PATCHES = [
  {
    from: 'const rgiEmojiRegex = /^\\p{RGI_Emoji}$/v;',
    to: [
      '// patched by scripts/string-width-patch.mjs: the set is built when a grapheme may be an emoji',
      'const mayBeRgiEmoji = /\\u20E3|(?![\\x00-\\x7F])\\p{Emoji}/u;',
      'let rgiEmojiSet;',
      'const rgiEmojiRegex = {test: (segment) => mayBeRgiEmoji.test(segment) && (rgiEmojiSet ??= new RegExp("^\\\\p{RGI_Emoji}$", "v")).test(segment)};',
    ].join('\n'),
  },
];
