/**
 * The Keybindings page (docs/keybindings.md) lists every action of the table with its default keys.
 * A new row in src/tui/keybindings.ts needs its row there too: this test names the missing one.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BINDINGS } from '../../src/tui/keybindings.js';

const PAGE = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'keybindings.md'), 'utf8');
const section = PAGE.slice(PAGE.indexOf('\n## Keybindings\n'));

describe('docs/keybindings.md', () => {
  it('has a Keybindings section', () => {
    expect(section.length).toBeGreaterThan(100);
  });

  it.each(BINDINGS.map((b) => [b.action, b.keys] as const))('lists %s with its default keys', (action, keys) => {
    const row = `| \`${action}\` | ${keys.map((k) => `\`${k.replace(/\|/g, '\\|')}\``).join(', ')} |`;
    expect(section).toContain(row);
  });
});
