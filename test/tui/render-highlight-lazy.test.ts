/**
 * The code grammars load in the background: until then code is drawn uncoloured (never blocking a
 * frame), and listeners hear when colours are available so the view can redraw.
 */
import chalk from 'chalk';
import { describe, expect, it } from 'vitest';
import {
  highlightCode,
  highlighterReady,
  loadHighlighter,
  onHighlighterLoaded,
} from '../../src/tui/render/highlight.js';
import { THEMES } from '../../src/tui/themes.js';

describe('lazy highlighting', () => {
  it('returns the code as is before loading, coloured after; the listener is told once', async () => {
    chalk.level = 3;
    expect(highlighterReady()).toBe(false);
    let told = 0;
    onHighlighterLoaded(() => told++);
    expect(highlightCode('const x = 1;', 'ts', THEMES.opencode)).toBe('const x = 1;');
    await loadHighlighter();
    expect(told).toBe(1);
    const coloured = highlightCode('const x = 1;', 'ts', THEMES.opencode);
    expect(coloured).not.toBe('const x = 1;');
    expect(coloured.replace(/\u001b\[[0-9;]*m/g, '')).toBe('const x = 1;');
  });
});
