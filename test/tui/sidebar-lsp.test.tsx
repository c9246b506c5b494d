/** The sidebar lists each language server with its state; the status bar shows the diagnostics counts and the servers that failed. */
import { render } from 'ink-testing-library';
import React from 'react';
import { describe, expect, it } from 'vitest';
import { Sidebar } from '../../src/tui/components/Sidebar.js';
import { StatusBar } from '../../src/tui/components/StatusBar.js';

describe('LSP in the TUI', () => {
  it('shows starting, ready, not started and failed with its reason', () => {
    const { lastFrame } = render(
      <Sidebar
        width={60}
        height={30}
        version="0.1.0"
        cwd="/p"
        title="t"
        lspServers={['typescript', 'python', 'go', 'rust']}
        lspStates={[
          { language: 'typescript', state: 'ready' },
          { language: 'python', state: 'starting' },
          { language: 'go', state: 'idle' },
          { language: 'rust', state: 'failed', reason: 'command not found: rust-analyzer' },
        ]}
        mcpServers={[]}
        modifiedFiles={[]}
      />,
    );
    const lines = lastFrame()!
      .split('\n')
      .map((l) => l.trim());
    const at = lines.indexOf('LSP Configuration');
    expect(lines.slice(at + 1, at + 5)).toEqual([
      '● typescript ready',
      '● python starting',
      '● go not started',
      '● rust failed: command not found: rust-analyzer',
    ]);
  });

  it('the status bar shows error and warning counts', () => {
    const { lastFrame } = render(
      <StatusBar
        width={80}
        contextWindowTokens={200_000}
        modelName="M"
        busy={false}
        diagnostics={{ errors: 2, warnings: 5 }}
      />,
    );
    expect(lastFrame()).toContain('✖ 2 ⚠ 5');
  });

  it('the status bar names the language servers that failed', () => {
    const servers = [
      { language: 'typescript', state: 'ready' },
      { language: 'rust', state: 'failed' },
      { language: 'go', state: 'failed' },
    ];
    const { lastFrame } = render(
      <StatusBar
        width={80}
        contextWindowTokens={200_000}
        modelName="M"
        busy={false}
        lspServers={servers}
        diagnostics={{ errors: 0, warnings: 1 }}
      />,
    );
    expect(lastFrame()!.trimEnd().endsWith(' LSP rust, go failed  ✖ 0 ⚠ 1  M')).toBe(true);
  });
});
