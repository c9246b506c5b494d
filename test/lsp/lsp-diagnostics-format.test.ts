/** The diagnostics text the model reads (the original's format): line format, order, the cap of 10, and the new-vs-existing split. */
import { describe, expect, it } from 'vitest';
import { formatBlock, formatDiagnostic, fromLsp, newSince, type Diagnostic } from '../../src/lsp/diagnostics.js';
import { applyTextEdits } from '../../src/lsp/text-edits.js';

const d = (over: Partial<Diagnostic>): Diagnostic => ({
  path: '/p/a.ts',
  line: 1,
  column: 1,
  severity: 'error',
  message: 'm',
  tags: [],
  ...over,
});

describe('diagnostics format', () => {
  it('converts 0-based wire positions to 1-based and formats severity, source, code and tags', () => {
    const wire = {
      range: { start: { line: 2, character: 6 }, end: { line: 2, character: 9 } },
      severity: 4,
      code: 6133,
      source: 'typescript',
      message: "'y' is declared but never read.",
      tags: [1],
    };
    expect(formatDiagnostic(fromLsp('/p/a.ts', wire))).toBe(
      "Hint: /p/a.ts:3:7 [typescript][6133] (unnecessary) 'y' is declared but never read.",
    );
    expect(formatDiagnostic(d({ severity: 'warning', message: 'w' }))).toBe('Warn: /p/a.ts:1:1 [] w');
  });

  it('puts errors first and shows at most 10 lines, then how many more', () => {
    const list = [d({ severity: 'warning', line: 1 }), ...Array.from({ length: 11 }, (_, i) => d({ line: i + 2 }))];
    const lines = formatBlock('file_diagnostics', list).split('\n');
    expect(lines[0]).toBe('<file_diagnostics>');
    expect(lines.slice(1, 11)).toEqual(Array.from({ length: 10 }, (_, i) => `Error: /p/a.ts:${i + 2}:1 [] m`));
    expect(lines.slice(11)).toEqual(['... and 2 more diagnostics', '</file_diagnostics>', '']);
  });

  it('counts a problem as new only when there are more of it than before', () => {
    const { added, kept } = newSince(
      [d({ line: 1 }), d({ line: 5, message: 'gone' })],
      [d({ line: 2 }), d({ line: 9 })],
    );
    expect(added.map((x) => x.line)).toEqual([9]);
    expect(kept.map((x) => x.line)).toEqual([2]);
  });
});

describe('applyTextEdits', () => {
  it('applies non-overlapping edits from last to first, UTF-16 columns', () => {
    const text = 'const oldName = 1;\nuse(oldName, "é");\n';
    const edits = [
      { range: { start: { line: 0, character: 6 }, end: { line: 0, character: 13 } }, newText: 'newName' },
      { range: { start: { line: 1, character: 4 }, end: { line: 1, character: 11 } }, newText: 'newName' },
      { range: { start: { line: 2, character: 0 }, end: { line: 2, character: 0 } }, newText: '// end\n' },
    ];
    expect(applyTextEdits(text, edits)).toBe('const newName = 1;\nuse(newName, "é");\n// end\n');
  });
});
