/**
 * `opencode stats` lists the offered built-ins from a table instead of importing every tool's module:
 * the table must name exactly the tools `builtinTools()` registers.
 */
import { describe, expect, it } from 'vitest';
import { BUILTIN_TOOL_NAMES } from '../../src/cli/stats.js';
import { listedTool } from '../../src/custom/load.js';
import { builtinTools } from '../../src/tools/index.js';
import { toolContext } from '../support/tool-context.js';

describe('stats: the built-in tool table', () => {
  it('names exactly the registered built-in tools, in the same order', () => {
    expect([...BUILTIN_TOOL_NAMES]).toEqual(
      builtinTools()
        .list()
        .map((tool) => tool.name),
    );
  });

  it('a listed stand-in says it cannot run rather than doing anything', async () => {
    expect(await listedTool('grep').run({}, toolContext('/'))).toEqual({
      output: 'grep was loaded for a listing only and cannot run',
      isError: true,
    });
  });
});
