// A build-time patch of @alcalzone/ansi-tokenize's styledCharsToString (build/styledChars.js: Ink's
// frame cells to text), applied by scripts/build.mjs like its other dependency patches ({ filter,
// from, to } text replacements; the build fails when a `from` text is gone). Its own file so that
// test/tui/ansi-tokenize-patch.test.ts can compare the text with and without it.
//
// styledCharsToString diffs the styles of every cell against the previous one (sets, filters and
// copies per cell): most of the first frame's ~50 ms output step on this machine (a CPU profile of
// the TUI's start), and again on every frame. The diff of two equal style lists is empty
// (each code of one is in the other), so cells styled as their left neighbour skip it: the same text,
// written cheaper.
export const ANSI_STYLED_CHARS = /@alcalzone[\\/]ansi-tokenize[\\/]build[\\/]styledChars\.js$/;
export const ANSI_TOKENIZE_PATCHES = [
  {
    from: 'ret += ansiCodesToString(diffAnsiCodes(chars[i - 1].styles, char.styles));',
    to: 'if (!sameAnsiCodes(chars[i - 1].styles, char.styles)) ret += ansiCodesToString(diffAnsiCodes(chars[i - 1].styles, char.styles));',
  },
  {
    from: 'export function styledCharsToString(chars) {',
    to: `function sameAnsiCodes(a, b) {
    if (a === b) return true;
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (a[i].code !== b[i].code || a[i].endCode !== b[i].endCode) return false;
    return true;
}
export function styledCharsToString(chars) {`,
  },
];
