/**
 * The status bar says whether the bash tool's commands run in the OS sandbox, before the model label,
 * and says nothing until that is known.
 */
import { render } from 'ink-testing-library';
import React from 'react';
import { describe, expect, it } from 'vitest';
import { StatusBar } from '../../src/tui/components/StatusBar.js';

const base = { contextWindowTokens: 200_000, modelName: 'Claude Sonnet 5.5', busy: false, width: 80 };

describe('StatusBar: the sandbox', () => {
  it('says "sandboxed" when commands run in the sandbox', () => {
    const { lastFrame } = render(<StatusBar {...base} sandboxed />);
    expect(lastFrame()).toBe(` ctrl+/ help${' '.repeat(39)}sandboxed  Claude Sonnet 5.5`);
  });

  it('says "not sandboxed" when they do not', () => {
    const { lastFrame } = render(<StatusBar {...base} sandboxed={false} />);
    expect(lastFrame()).toBe(` ctrl+/ help${' '.repeat(35)}not sandboxed  Claude Sonnet 5.5`);
  });

  it('says nothing while it is not known yet', () => {
    const { lastFrame } = render(<StatusBar {...base} />);
    expect(lastFrame()).toBe(` ctrl+/ help${' '.repeat(50)}Claude Sonnet 5.5`);
  });
});
