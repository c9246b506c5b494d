/**
 * The welcome screen's key hints are the keys in effect: the table's by default, a
 * rebound action's new key, and no row for an action without a key.
 */
import { render } from 'ink-testing-library';
import React from 'react';
import { describe, expect, it } from 'vitest';
import { Welcome } from '../../src/tui/components/Welcome.js';
import { buildKeymap } from '../../src/tui/keymap.js';
import { KeymapContext } from '../../src/tui/keymap-context.js';

const hints = (frame: string) =>
  frame
    .split('\n')
    .filter((l) => /^\S+ {2,}\S/.test(l))
    .map((l) => l.replace(/ {2,}/, ' | '));

describe('Welcome', () => {
  it('shows the default keys', () => {
    const { lastFrame } = render(<Welcome version="0.1.0" cwd="/p" modelName="M" />);
    expect(hints(lastFrame()!)).toEqual([
      '@ | add a file or folder of the project',
      'ctrl+k | commands (initialize project, compact session)',
      'ctrl+s | earlier sessions',
      'ctrl+o | change model',
      'ctrl+/ | all keys',
    ]);
  });

  it('shows a rebound key, and leaves out an unbound action', () => {
    const { keymap } = buildKeymap([
      { file: '/p/.opencode.json', bindings: { 'model.list': ['alt+m', 'ctrl+o'], 'session.list': 'none' } },
    ]);
    const { lastFrame } = render(
      <KeymapContext.Provider value={keymap}>
        <Welcome version="0.1.0" cwd="/p" modelName="M" />
      </KeymapContext.Provider>,
    );
    expect(hints(lastFrame()!)).toEqual([
      '@ | add a file or folder of the project',
      'ctrl+k | commands (initialize project, compact session)',
      'alt+m | change model',
      'ctrl+/ | all keys',
    ]);
  });
});
