/**
 * commander requires node:child_process as it loads, only for executable sub-commands, which opencode
 * has none of; scripts/build.mjs patches that require to happen at first use (~20 ms on the
 * TUI's path to its skeleton frame, where the TUI's V8 flag has Node compile its built-ins from source).
 * `opencode --help` runs commander through and exits: the built dist/ must never load node:child_process
 * there. Through bin/opencode, with a preload that reports Node's list of loaded built-ins at exit.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN } from '../support/cli.js';

describe('commander in the built command', () => {
  it('--help prints the usage without loading node:child_process', () => {
    const preload = join(mkdtempSync(join(tmpdir(), 'opencode-commander-')), 'loaded.cjs');
    writeFileSync(
      preload,
      "process.on('exit', () => process.stderr.write(`child_process loaded: ${process.moduleLoadList.includes('NativeModule child_process')}\\n`));\n",
    );
    const run = spawnSync(process.execPath, ['-r', preload, BIN, '--help'], { encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^Usage: opencode \[options\] \[command\]/);
    expect(run.stderr).toBe('child_process loaded: false\n');
  });
});
