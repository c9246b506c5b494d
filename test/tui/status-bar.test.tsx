/**
 * The status bar: context and cost, the warning above 80 % of the window, the help key in effect,
 * a message never cut by the model label, and never a character wider than the terminal.
 */
import { render } from 'ink-testing-library';
import React from 'react';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { StatusBar } from '../../src/tui/components/StatusBar.js';
import { buildKeymap } from '../../src/tui/keymap.js';
import { KeymapContext } from '../../src/tui/keymap-context.js';

const base = { contextWindowTokens: 200_000, modelName: 'Claude Sonnet 5.5', busy: false };
const BUSY_TEXT = 'The agent is busy: switch models after the reply finishes (esc cancels it)';
const busyStatus = { text: BUSY_TEXT, level: 'warn' as const, expiresAt: 0 };

describe('StatusBar', () => {
  it('shows a help key terminals can send, context and cost, then the model at the right edge', () => {
    const { lastFrame } = render(<StatusBar {...base} width={80} usage={{ contextTokens: 12_345, costUsd: 0.042 }} />);
    // (the test renderer drops the trailing space)
    expect(lastFrame()).toBe(` ctrl+/ help  Context: 12.3K, Cost: $0.04${' '.repeat(21)}Claude Sonnet 5.5`);
  });

  it('while busy the hint is the busy help key', () => {
    const { lastFrame } = render(<StatusBar {...base} width={80} busy />);
    expect(lastFrame()).toMatch(/^ \? help {2,}Claude Sonnet 5\.5$/);
  });

  it('the hint follows a rebound help key, and falls back to app.help when the busy key is unbound', () => {
    const { keymap } = buildKeymap([
      { file: '/p/.opencode.json', bindings: { 'app.help': ['f1', 'ctrl+h'], 'app.help_busy': 'none' } },
    ]);
    const { lastFrame } = render(
      <KeymapContext.Provider value={keymap}>
        <StatusBar {...base} width={60} busy />
      </KeymapContext.Provider>,
    );
    expect(lastFrame()).toMatch(/^ f1 help {2,}Claude Sonnet 5\.5$/);
  });

  it('warns with the percentage above 80 % of the window', () => {
    const { lastFrame } = render(<StatusBar {...base} width={90} usage={{ contextTokens: 170_000, costUsd: 1.5 }} />);
    expect(lastFrame()).toContain('⚠ Context: 170.0K (85%), Cost: $1.50');
  });

  it('cuts the model label, not the message', () => {
    const { lastFrame } = render(<StatusBar {...base} width={100} status={busyStatus} />);
    expect(lastFrame()).toBe(` ctrl+/ help  ${BUSY_TEXT} Claude So… `.trimEnd());
  });

  it('drops the label when it would be too narrow to read', () => {
    const { lastFrame } = render(<StatusBar {...base} width={92} status={busyStatus} />);
    expect(lastFrame()).toBe(` ctrl+/ help  ${BUSY_TEXT}`);
  });

  it('puts a message too long for the bar on its own rows above it, whole', () => {
    const { lastFrame } = render(
      <StatusBar {...base} width={60} status={busyStatus} usage={{ contextTokens: 0, costUsd: 0 }} />,
    );
    expect(lastFrame()!.split('\n')).toEqual([
      ' The agent is busy: switch models after the reply finishes',
      ' (esc cancels it)',
      ` ctrl+/ help  Context: 0, Cost: $0.00${' '.repeat(5)}Claude Sonnet 5.5`,
    ]);
  });

  it('no row is wider than the terminal at any size', () => {
    for (const width of [20, 40, 61, 80, 120]) {
      const { lastFrame } = render(
        <StatusBar {...base} width={width} status={busyStatus} usage={{ contextTokens: 0, costUsd: 0 }} busy />,
      );
      for (const row of lastFrame()!.split('\n'))
        expect(stringWidth(row), `${width}: ${row}`).toBeLessThanOrEqual(width);
    }
  });
});
