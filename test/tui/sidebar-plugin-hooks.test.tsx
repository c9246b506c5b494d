/** The sidebar lists a plugin that has hooks only (no tool of its own) under Custom Tools, with its hooks. */
import { render } from 'ink-testing-library';
import React from 'react';
import { describe, expect, it } from 'vitest';
import { Sidebar } from '../../src/tui/components/Sidebar.js';

describe('plugin hooks in the sidebar', () => {
  it('a hooks-only plugin shows with the names of its hooks', () => {
    const { lastFrame } = render(
      <Sidebar
        width={70}
        height={40}
        version="0.1.0"
        cwd="/p"
        title="t"
        lspServers={[]}
        mcpServers={[]}
        customTools={{
          loaded: [],
          hooks: [{ origin: '.opencode/plugins/audit.mjs', source: 'project', hooks: ['tool.execute.after', 'event'] }],
          failed: [],
        }}
        modifiedFiles={[]}
      />,
    );
    const lines = lastFrame()!
      .split('\n')
      .map((l) => l.trim());
    const at = lines.indexOf('Custom Tools');
    expect(at).toBeGreaterThan(0);
    expect(lines[at + 1]).toBe('● audit.mjs hooks: tool.execute.after, event');
  });
});
