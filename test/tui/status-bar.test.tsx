/**
 * The status bar: context and cost, the warning above 80 % of the window, the message cut to what
 * is left, and never a character wider than the terminal.
 */
import { render } from 'ink-testing-library';
import React from 'react';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { StatusBar } from '../../src/tui/components/StatusBar.js';

const base = { contextWindowTokens: 200_000, modelName: 'Claude Sonnet 5.5', busy: false };

describe('StatusBar', () => {
  it('shows context and cost, then the model at the right edge', () => {
    const { lastFrame } = render(<StatusBar {...base} width={80} usage={{ contextTokens: 12_345, costUsd: 0.042 }} />);
    // (the test renderer drops the trailing space)
    expect(lastFrame()).toBe(` ctrl+? help  Context: 12.3K, Cost: $0.04${' '.repeat(21)}Claude Sonnet 5.5`);
  });

  it('warns with the percentage above 80 % of the window', () => {
    const { lastFrame } = render(<StatusBar {...base} width={90} usage={{ contextTokens: 170_000, costUsd: 1.5 }} />);
    expect(lastFrame()).toContain('⚠ Context: 170.0K (85%), Cost: $1.50');
  });

  it('cuts a long message to fit; the line is exactly the width at every size', () => {
    const status = { text: 'The agent is busy: switch models after the reply finishes (esc cancels it)', level: 'warn' as const, expiresAt: 0 };
    for (const width of [20, 40, 61, 80, 120]) {
      const { lastFrame } = render(<StatusBar {...base} width={width} status={status} usage={{ contextTokens: 0, costUsd: 0 }} busy />);
      const frame = lastFrame()!;
      expect(frame.split('\n')).toHaveLength(1);
      expect(stringWidth(frame)).toBeLessThanOrEqual(width);
    }
    const { lastFrame } = render(<StatusBar {...base} width={100} status={status} />);
    expect(lastFrame()).toContain(' ctrl+? help  The agent is busy: switch models after the reply finishes (esc c');
  });
});
