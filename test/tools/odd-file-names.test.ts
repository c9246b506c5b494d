/**
 * Names and patterns a tester broke glob, ls and grep with: a file name holding a newline (it showed
 * as two entries) and an invalid glob (the model got V8's "Invalid regular expression: /^[z-a]$/…").
 */
import { afterAll, describe, expect, it } from 'vitest';
import { globTool } from '../../src/tools/glob.js';
import { grepTool } from '../../src/tools/grep.js';
import { lsTool } from '../../src/tools/ls.js';
import { bothWays } from '../support/ripgrep-modes.js';
import { cleanupTempDirs, tempDir, writeTree } from '../support/temp-tree.js';
import { runTool, toolContext } from '../support/tool-context.js';

afterAll(cleanupTempDirs);

describe('a file name with a newline stays one line', () => {
  it('in glob, with rg and the fallback', async () => {
    const dir = tempDir('nl');
    writeTree(dir, { 'two\nlines.txt': 'x\n' });
    const { ripgrep, fallback } = await bothWays(() => runTool(globTool, { pattern: '*.txt' }, toolContext(dir)));
    expect(fallback).toEqual(ripgrep);
    expect(ripgrep.output).toBe(`${dir}/two\\nlines.txt`);
  });

  it('in ls', async () => {
    const dir = tempDir('nl');
    writeTree(dir, { 'two\nlines.txt': 'x\n', 'plain.txt': 'x\n' });
    expect((await runTool(lsTool, {}, toolContext(dir))).output).toBe(
      `- ${dir}/\n  - plain.txt\n  - two\\nlines.txt\n`,
    );
  });

  it('in grep, with rg and the fallback', async () => {
    const dir = tempDir('nl');
    writeTree(dir, { 'two\nlines.txt': 'needle\n' });
    const { ripgrep, fallback } = await bothWays(() => runTool(grepTool, { pattern: 'needle' }, toolContext(dir)));
    expect(fallback).toEqual(ripgrep);
    expect(ripgrep.output).toBe(`Found 1 matches\n${dir}/two\\nlines.txt:\n  Line 1: needle\n`);
  });
});

describe('an invalid glob says so briefly', () => {
  it('glob "[z-a]"', async () => {
    const dir = tempDir('bad');
    expect(await runTool(globTool, { pattern: '[z-a]' }, toolContext(dir))).toEqual({
      output: 'Invalid glob pattern "[z-a]": range out of order in character class',
      isError: true,
      metadata: undefined,
    });
  });

  it('grep include "[z-a]"', async () => {
    const dir = tempDir('bad');
    expect((await runTool(grepTool, { pattern: 'x', include: '[z-a]' }, toolContext(dir))).output).toBe(
      'Invalid glob pattern "[z-a]": range out of order in character class',
    );
  });
});
