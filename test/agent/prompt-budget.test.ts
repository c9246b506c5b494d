/**
 * The system prompt plus tool schemas of a session's first request stay within the 24,000-character
 * budget (other coding agents send 30,000 and 78,000), and the prompt carries what the original's prompt does.
 */
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_TREE_MAX_ENTRIES, systemPrompt } from '../../src/agent/prompts.js';
import { builtinTools } from '../../src/tools/index.js';
import { projectTree } from '../../src/tools/ls.js';

function smallProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'opencode-prompt-'));
  mkdirSync(join(dir, 'src'));
  for (const f of ['index.ts', 'app.ts', 'util.ts']) writeFileSync(join(dir, 'src', f), '');
  writeFileSync(join(dir, 'package.json'), '{}');
  writeFileSync(join(dir, 'AGENTS.md'), 'Run `npm test` before you finish.\n');
  return dir;
}

describe('first request size', () => {
  it('system prompt + built-in tool schemas ≤ 24,000 characters', () => {
    const dir = smallProject();
    const prompt = systemPrompt('coder', { cwd: dir, projectTree: projectTree(dir), contextPaths: ['CLAUDE.md'] });
    const tools = JSON.stringify(builtinTools().schemas());
    expect(prompt.length + tools.length).toBeLessThanOrEqual(24_000);
  });

  it('stays within the budget on a large project: the tree is capped', () => {
    const dir = smallProject();
    for (let p = 0; p < 30; p++) {
      mkdirSync(join(dir, `package-${p}`, 'src', 'components'), { recursive: true });
      for (let f = 0; f < 50; f++)
        writeFileSync(join(dir, `package-${p}`, 'src', 'components', `component-number-${f}.tsx`), '');
    }
    const tree = projectTree(dir, PROJECT_TREE_MAX_ENTRIES);
    expect(tree).toMatch(/^There are more than 200 files in the directory/);
    const prompt = systemPrompt('coder', { cwd: dir, projectTree: tree, contextPaths: [] });
    expect(prompt.length + JSON.stringify(builtinTools().schemas()).length).toBeLessThanOrEqual(24_000);
  });

  it('carries the environment block, the project tree and the context files in order', () => {
    const dir = smallProject();
    writeFileSync(join(dir, 'CLAUDE.md'), 'Use tabs.\n');
    const prompt = systemPrompt('coder', {
      cwd: dir,
      projectTree: projectTree(dir),
      contextPaths: ['CLAUDE.md', 'OpenCode.md'],
      now: new Date(2026, 10, 30),
      platform: 'linux',
    });
    expect(prompt).toContain(
      `<env>\nWorking directory: ${dir}\nIs directory a git repo: no\nPlatform: linux\nToday's date: 11/30/2026\n</env>`,
    );
    expect(prompt).toContain(`<project>\n- ${dir}/\n`);
    expect(prompt).toContain('  - src/\n    - app.ts\n    - index.ts\n    - util.ts\n</project>');
    const claude = prompt.indexOf(`# From:${join(dir, 'CLAUDE.md')}\nUse tabs.`);
    const agents = prompt.indexOf(`# From:${join(dir, 'AGENTS.md')}\nRun \`npm test\``);
    expect(claude).toBeGreaterThan(0);
    expect(agents).toBeGreaterThan(claude);
  });

  it('re-reads context files at every call', () => {
    const dir = smallProject();
    const env = { cwd: dir, projectTree: '', contextPaths: [] };
    expect(systemPrompt('coder', env)).toContain('Run `npm test`');
    writeFileSync(join(dir, 'AGENTS.md'), 'Use pnpm.\n');
    expect(systemPrompt('coder', env)).toContain('Use pnpm.');
  });
});

describe('context files', () => {
  it('loads OpenCode.md when the list names opencode.md first, and each file once', () => {
    const dir = smallProject();
    writeFileSync(join(dir, 'OpenCode.md'), 'Memory: use vitest.\n');
    const env = { cwd: dir, projectTree: '', contextPaths: ['opencode.md', 'OpenCode.md', 'OPENCODE.md'] };
    const prompt = systemPrompt('coder', env);
    expect(prompt).toContain(`# From:${join(dir, 'OpenCode.md')}\nMemory: use vitest.`);
    expect(prompt.split('Memory: use vitest.').length).toBe(2);
  });
});

describe('context folder', () => {
  it('skips binary files and bounds the total', () => {
    const dir = smallProject();
    mkdirSync(join(dir, 'rules'));
    writeFileSync(join(dir, 'rules', 'a.bin'), Buffer.from([0, 1, 2, 3]));
    for (let i = 0; i < 10; i++) writeFileSync(join(dir, 'rules', `r${i}.md`), 'x'.repeat(15_000));
    const prompt = systemPrompt('coder', { cwd: dir, projectTree: '', contextPaths: ['rules/'] });
    expect(prompt).not.toContain('a.bin');
    expect(prompt).toContain('(further context files left out: the context is limited to 60000 characters)');
    expect(prompt.length).toBeLessThan(70_000);
  });
});
