/**
 * A long line with many matches costs no more than reading it (the tester's 1 MB line matching `.`
 * took 7.6 s and 250 MB through rg's --json submatches; 15 MB ended in "Invalid string length").
 * rg and the fallback still agree, and the line is cut at 2000 characters.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { grepTool } from '../../src/tools/grep.js';
import { bothWays } from '../support/ripgrep-modes.js';
import { cleanupTempDirs, tempDir } from '../support/temp-tree.js';
import { runTool, toolContext } from '../support/tool-context.js';

afterAll(cleanupTempDirs);

describe('grep on long lines', () => {
  it('a 1 MB line matching `.` comes back cut, the same with rg and the fallback, in under 3 s', async () => {
    const dir = tempDir('long');
    writeFileSync(join(dir, 'min.js'), `${'a'.repeat(1_000_000)}\nshort\n`);
    const started = Date.now();
    const { ripgrep, fallback } = await bothWays(() => runTool(grepTool, { pattern: '.' }, toolContext(dir)));
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(fallback).toEqual(ripgrep);
    expect(ripgrep.output).toBe(`Found 2 matches\n${dir}/min.js:\n  Line 1: ${'a'.repeat(2000)}...\n  Line 2: short\n`);
  });

  it('a 15 MB line with rg: bounded memory, no "Invalid string length"', async () => {
    const dir = tempDir('huge');
    writeFileSync(join(dir, 'huge.txt'), `é${'ab'.repeat(7_500_000)}\n`);
    const before = process.memoryUsage().rss;
    const result = await runTool(grepTool, { pattern: '.' }, toolContext(dir));
    expect(result.output).toBe(
      `Found 1 matches\n${dir}/huge.txt:\n  Line 1: é${'ab'.repeat(1000).slice(0, 1999)}...\n`,
    );
    expect(process.memoryUsage().rss - before).toBeLessThan(200 * 1024 * 1024);
  });

  it('a binary file found after the first matches is dropped by rg as by the fallback', async () => {
    const dir = tempDir('late-nul');
    const lines = Array.from({ length: 20_000 }, (_, i) => `hello ${i}`).join('\n');
    writeFileSync(join(dir, 'late.txt'), `${lines}\n\0\nhello\n`);
    writeFileSync(join(dir, 'ok.txt'), 'hello there\n');
    const { ripgrep, fallback } = await bothWays(() => runTool(grepTool, { pattern: 'hello' }, toolContext(dir)));
    expect(fallback).toEqual(ripgrep);
    expect(ripgrep.output).toBe(`Found 1 matches\n${dir}/ok.txt:\n  Line 1: hello there\n`);
  });
});
