/**
 * Keys typed while the TUI loaded, handed over by the terminal as one run: which are a typed line
 * (sent), which a paste, and how the run is cut into the events Ink would make of it.
 */
import { describe, expect, it } from 'vitest';
import { InputRouter } from '../../src/tui/input/InputProvider.js';
import { isTypedLine, splitInputEvents } from '../../src/tui/input/paste-burst.js';
import type { Key } from '../../src/tui/input/keys.js';

describe('isTypedLine', () => {
  it.each([
    ['fix the failing test in src/add.ts and run it again please\n', true],
    ['fix the failing test in src/add.ts and run it again please\r', true],
    ['yes\r\n', true],
    ['fix it', false],
    ['line 1\nline 2', false],
    ['line 1\nline 2\n', false],
  ])('%j → %s', (text, typed) => {
    expect(isTypedLine(text)).toBe(typed);
  });
});

describe('splitInputEvents', () => {
  it('cuts escape sequences from the text around them, as Ink does', () => {
    expect(splitInputEvents('ab\u001b[Acd\u001bOPx\u001bq\u001b[200~pasted\u001b[201~\r')).toEqual([
      'ab',
      '\u001b[A',
      'cd',
      '\u001bOP',
      'x',
      '\u001bq',
      '\u001b[200~',
      'pasted',
      '\u001b[201~',
      '\r',
    ]);
  });
});

/** A router with one editor-layer handler recording keys and one paste handler. */
function routerWithEditor(): { router: InputRouter; keys: string[]; pastes: string[] } {
  const router = new InputRouter(() => 0);
  const keys: string[] = [];
  const pastes: string[] = [];
  router.addKeyHandler(0, { current: (k: Key) => void keys.push(k.name === 'text' ? `text:${k.text}` : k.name) });
  router.addPasteHandler(0, { current: (text: string) => void pastes.push(text) });
  return { router, keys, pastes };
}

async function turns(n = 5): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
}

describe('InputRouter.typedAhead', () => {
  it('a long prompt and its Enter are keys: the text, then return', async () => {
    const { router, keys, pastes } = routerWithEditor();
    router.typedAhead('fix the failing test in src/add.ts and run it again please\n');
    await turns();
    expect(keys).toEqual(['text:fix the failing test in src/add.ts and run it again please', 'return']);
    expect(pastes).toEqual([]);
  });

  it('a paste the terminal marked stays a paste', async () => {
    const { router, keys, pastes } = routerWithEditor();
    router.typedAhead('\u001b[200~line 1\nline 2\n\u001b[201~');
    await turns();
    expect(pastes).toEqual(['line 1\nline 2\n']);
    expect(keys).toEqual([]);
  });
});
