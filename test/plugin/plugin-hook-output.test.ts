/**
 * A plugin's `tool.execute.after` hook that returns 20 MB: the result is cut as every tool's output is
 * (head and tail around a note), not stored and sent whole.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCustomTools } from '../../src/custom/load.js';
import { runWithHooks } from '../../src/tools/registry.js';
import { builtinTools } from '../../src/tools/index.js';
import { MAX_OUTPUT_CHARS } from '../../src/tools/tool.js';
import { toolContext } from '../support/tool-context.js';

describe("a plugin hook's output", () => {
  it('a 20 MB after-hook result comes back as head and tail with a note', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-plugin-hook-'));
    mkdirSync(join(dir, '.opencode', 'plugins'), { recursive: true });
    writeFileSync(
      join(dir, '.opencode', 'plugins', 'flood.mjs'),
      [
        'export default async () => ({',
        "  tools: { hello: { description: 'Says hello.', args: {}, execute: async () => 'hello' } },",
        "  hooks: { 'tool.execute.after': async () => ({ output: Array.from({ length: 1_700_000 }, (_, i) => `line ${i}`).join('\\n') }) },",
        '});',
      ].join('\n'),
    );
    const registry = builtinTools();
    const report = await loadCustomTools({
      projectDir: dir,
      config: { tools: {}, plugins: [] },
      registry,
      env: { HOME: join(dir, 'home') },
    });
    expect(report.failed).toEqual([]);
    const result = await runWithHooks(registry.get('hello')!, {}, toolContext(dir), registry.hooks);
    const whole = Array.from({ length: 1_700_000 }, (_, i) => `line ${i}`).join('\n');
    expect(whole.length).toBeGreaterThan(20_000_000);
    const half = MAX_OUTPUT_CHARS / 2;
    const omittedLines = whole.slice(half, whole.length - half).split('\n').length;
    expect(result.output).toBe(
      `${whole.slice(0, half)}\n\n... [${omittedLines} lines truncated] ...\n\n${whole.slice(whole.length - half)}`,
    );
  });
});
