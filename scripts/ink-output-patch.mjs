// A build-time patch of Ink's frame-to-text step (node_modules/ink/build/output.js), applied by
// scripts/build.mjs like its other dependency patches ({ filter, from, to } text replacements; the
// build fails when a `from` text is gone). Its own file so that test/tui/ink-output-patch.test.ts can
// run Ink's Output with and without it and compare the frames.
//
// Ink builds each frame's text in a new Output whose caches (a line's styled cells, string widths)
// start empty, and turns every row of the grid into text again, though a typed key changes one line:
// in a CPU profile of a key's echo that was most of the frame (tokenizing each line,
// slicing the clipped ones, each row's style diffs). Here one set of caches serves every frame: a
// line's cells and widths, a clipped line's slice, and each row's text, reused while the row holds
// the same cells (the blank cell is one shared object, so blank runs compare equal too). Emptied
// when it holds OUTPUT_CACHE_LINES lines (~12 KB each at 120 columns): a long streamed reply cannot
// grow it. Cells are only read (each frame places them in its own grid): the text is the same.
export const INK_OUTPUT = /ink[\\/]build[\\/]output\.js$/;
export const OUTPUT_CACHE_LINES = 600;
export const INK_OUTPUT_PATCHES = [
  {
    from: '    widths = new Map();',
    to: `    widths = new Map();
    slices = new Map();
    rows = [];
    getSlice(line, from, to) {
        const key = from + ':' + to + ':' + line;
        let cached = this.slices.get(key);
        if (cached === undefined) {
            cached = sliceAnsi(line, from, to);
            this.slices.set(key, cached);
        }
        return cached;
    }
    rowText(y, cells) {
        const row = this.rows[y];
        if (row === undefined || row.cells.length !== cells.length) return undefined;
        for (let x = 0; x < cells.length; x++) if (row.cells[x] !== cells[x]) return undefined;
        return row.text;
    }
    setRowText(y, cells, text) {
        this.rows[y] = { cells, text };
        return text;
    }`,
  },
  {
    from: 'export default class Output {',
    to: `const BLANK_CELL = { type: 'char', value: ' ', fullWidth: false, styles: [] };
let sharedCaches;
function frameCaches() {
    const c = sharedCaches;
    if (!c || c.styledChars.size + c.blockWidths.size + c.slices.size > ${OUTPUT_CACHE_LINES} || c.widths.size > ${OUTPUT_CACHE_LINES * 4}) sharedCaches = new OutputCaches();
    return sharedCaches;
}
export default class Output {`,
  },
  { from: 'caches = new OutputCaches();', to: 'caches = frameCaches();' },
  {
    from: "row.push({\n                    type: 'char',\n                    value: ' ',\n                    fullWidth: false,\n                    styles: [],\n                });",
    to: 'row.push(BLANK_CELL);',
  },
  { from: 'return sliceAnsi(line, from, to);', to: 'return this.caches.getSlice(line, from, to);' },
  {
    from: '            .map(line => {\n',
    to: '            .map((line, y) => {\n            const known = this.caches.rowText(y, line);\n            if (known !== undefined) return known;\n',
  },
  {
    from: 'return styledCharsToString(lineWithoutEmptyItems).trimEnd();',
    to: 'return this.caches.setRowText(y, line, styledCharsToString(lineWithoutEmptyItems).trimEnd());',
  },
].map((p) => ({ filter: INK_OUTPUT, ...p }));
