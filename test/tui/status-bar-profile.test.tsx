/**
 * The status bar names the active provider profile before the model, and the label
 * still gives way to a message rather than cutting it.
 */
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { StatusBar } from '../../src/tui/components/StatusBar.js';

const base = { contextWindowTokens: 200_000, modelName: 'Claude Sonnet 5.5', busy: false };

describe('StatusBar with a profile', () => {
  it('shows the profile before the model at the right edge', () => {
    const { lastFrame } = render(<StatusBar {...base} width={60} profile="work" />);
    expect(lastFrame()).toBe(` ctrl+/ help${' '.repeat(23)}work · Claude Sonnet 5.5`);
  });

  it('shows the model alone without one', () => {
    const { lastFrame } = render(<StatusBar {...base} width={60} />);
    expect(lastFrame()).toBe(` ctrl+/ help${' '.repeat(30)}Claude Sonnet 5.5`);
  });

  it('cuts the label, not the message, when both do not fit', () => {
    const status = { text: 'Profile: local, model qwen3-coder', level: 'info' as const, expiresAt: 0 };
    const { lastFrame } = render(<StatusBar {...base} width={60} profile="work" status={status} />);
    expect(lastFrame()).toContain('Profile: local, model qwen3-coder');
    expect(lastFrame()).toMatch(/ work · Cla…$/);
  });
});
