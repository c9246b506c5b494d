/**
 * Initialize Project (the original's command): the flag file `<dataDir>/init` and the prompt's content.
 */
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { INIT_PROMPT, isProjectInitialized, markProjectInitialized } from '../../src/agent/init-prompt.js';

describe('init flag', () => {
  it('is absent, then present after marking, in a data dir created on demand with mode 0700', () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'opencode-init-')), '.opencode');
    expect(isProjectInitialized(dataDir)).toBe(false);
    markProjectInitialized(dataDir);
    expect(isProjectInitialized(dataDir)).toBe(true);
    expect(readdirSync(dataDir)).toEqual(['init']);
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    // marking again is harmless
    markProjectInitialized(dataDir);
    expect(isProjectInitialized(dataDir)).toBe(true);
  });

  it("asks for OpenCode.md with commands, the single-test command, code style and other assistants' rules", () => {
    for (const phrase of [
      'OpenCode.md',
      'about 20 lines',
      'single test',
      'code style',
      '.cursor/rules/',
      '.cursorrules',
      '.github/copilot-instructions.md',
      'improve it',
    ]) {
      expect(INIT_PROMPT).toContain(phrase);
    }
  });
});
