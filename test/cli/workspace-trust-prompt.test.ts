/**
 * Workspace trust in `-p`: a project's own plugin, declarative tool, MCP server and language server
 * start only once the project is trusted (`--trust`, or `opencode trust`), never inside another
 * opencode's command; the user's own MCP server starts either way. Through the built CLI, with the
 * hostile project's code writing a marker file whenever it runs.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { cleanEnv, runCli } from '../support/cli.js';
import { HOSTILE_TURNS, hostileProject, type HostileProject } from '../support/hostile-project.js';

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const env = (p: HostileProject, f: FakeProvider, extra: Record<string, string> = {}) =>
  cleanEnv({ HOME: p.home, ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: f.anthropicBaseURL, ...extra });

/** The tool names the model was offered in its first request. */
const offeredTools = (f: FakeProvider) => (f.answered[0].tools as { name: string }[]).map((t) => t.name);

const ALL_MARKS = ['lsp', 'mcp', 'plugin', 'tool', 'user-mcp'];

describe('workspace trust in -p', () => {
  it("an untrusted project: none of its code starts, one line says what was skipped and how to trust; the user's own server starts", async () => {
    const p = hostileProject();
    fake = await startFakeProvider(HOSTILE_TURNS);
    const run = await runCli(['-p', 'go'], { cwd: p.dir, env: env(p, fake) });
    expect(run.stderr.split('\n').filter((l) => l.includes('not trusted'))).toEqual([p.heldLine.trimEnd()]);
    expect(run.code).toBe(0);
    expect(p.marks()).toEqual(['user-mcp']);
    expect(offeredTools(fake)).not.toContain('evil_tool');
  });

  it('--trust runs all of it for this run, and trusts nothing for later', async () => {
    const p = hostileProject();
    fake = await startFakeProvider(HOSTILE_TURNS);
    const run = await runCli(['-p', 'go', '--trust'], { cwd: p.dir, env: env(p, fake) });
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain('not trusted');
    expect(p.marks()).toEqual(ALL_MARKS);
    expect(offeredTools(fake)).toContain('evil_tool');
    expect(existsSync(join(p.home, '.config', 'opencode', 'trusted-projects.json'))).toBe(false);
  });

  it("`opencode trust` lists the project in the user's config folder; later runs start its code; --revoke holds it back again", async () => {
    const p = hostileProject();
    const trusted = await runCli(['trust'], { cwd: p.dir, env: cleanEnv({ HOME: p.home }) });
    const trustFile = join(p.home, '.config', 'opencode', 'trusted-projects.json');
    const mark = join(p.dir, 'mark.cjs');
    expect(trusted).toMatchObject({
      code: 0,
      stderr: '',
      stdout:
        `trusted: ${p.dir} (listed in ${trustFile})\n` +
        `from the next start it runs: MCP server evil (${process.execPath} ${mark} mcp), language server evil (${process.execPath} ${mark} lsp), ` +
        'plugin .opencode/plugins/evil.js, tool file .opencode/tools/evil.json\n',
    });
    expect(JSON.parse(readFileSync(trustFile, 'utf8'))).toEqual({ projects: [p.dir] });
    expect((await runCli(['trust', '--list'], { cwd: p.home, env: cleanEnv({ HOME: p.home }) })).stdout).toBe(
      `${p.dir}\n`,
    );

    fake = await startFakeProvider(HOSTILE_TURNS);
    const run = await runCli(['-p', 'go'], { cwd: p.dir, env: env(p, fake) });
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain('not trusted');
    expect(p.marks()).toEqual(ALL_MARKS);

    const revoked = await runCli(['trust', '--revoke', p.dir], { cwd: p.home, env: cleanEnv({ HOME: p.home }) });
    expect(revoked).toMatchObject({ code: 0, stdout: `no longer trusted: ${p.dir}\n` });
    expect(JSON.parse(readFileSync(trustFile, 'utf8'))).toEqual({ projects: [] });
  });

  it("inside another opencode's command (OPENCODE_SANDBOXED=1) --trust and `opencode trust` are refused; nothing of the project starts", async () => {
    const p = hostileProject();
    const trust = await runCli(['trust'], { cwd: p.dir, env: cleanEnv({ HOME: p.home, OPENCODE_SANDBOXED: '1' }) });
    expect(trust).toMatchObject({
      code: 2,
      stderr:
        "opencode: refused: this opencode was started by another opencode's command (OPENCODE_SANDBOXED=1); only you can trust a project, from your own terminal\n",
    });
    expect(existsSync(join(p.home, '.config', 'opencode', 'trusted-projects.json'))).toBe(false);

    fake = await startFakeProvider(HOSTILE_TURNS);
    const run = await runCli(['-p', 'go', '--trust'], { cwd: p.dir, env: env(p, fake, { OPENCODE_SANDBOXED: '1' }) });
    expect(run.code).toBe(0);
    expect(run.stderr.split('\n').filter((l) => l.includes('trust'))).toEqual([
      "opencode: --trust is refused: this opencode was started by another opencode's command (OPENCODE_SANDBOXED=1), and only you can trust a project",
      p.heldLine.trimEnd(),
    ]);
    expect(p.marks()).toEqual(['user-mcp']);
  });

  it("`opencode tools`, `mcp list` and `stats --mcp` start none of an untrusted project's code either; with --trust they do", async () => {
    const p = hostileProject();
    const tools = await runCli(['tools', '--json'], { cwd: p.dir, env: cleanEnv({ HOME: p.home }) });
    expect(tools.code).toBe(0);
    expect(tools.stderr).toBe(p.heldLine);
    const names = (JSON.parse(tools.stdout) as { tools: { name: string }[] }).tools.map((t) => t.name);
    expect(names).not.toContain('evil_tool');
    const mcp = await runCli(['mcp', 'list'], { cwd: p.dir, env: cleanEnv({ HOME: p.home }) });
    expect(mcp.code).toBe(0);
    expect(mcp.stderr).toBe(p.heldLine);
    expect(mcp.stdout.split('\n')[0]).toMatch(/^mine {2}stdio {2}failed: /);
    const stats = await runCli(['stats', '--mcp', '--json'], { cwd: p.dir, env: cleanEnv({ HOME: p.home }) });
    expect(stats.code).toBe(0);
    expect(stats.stderr).toBe(p.heldLine);
    expect(p.marks()).toEqual(['user-mcp']);

    const trusted = await runCli(['--trust', 'tools', '--json'], { cwd: p.dir, env: cleanEnv({ HOME: p.home }) });
    expect((JSON.parse(trusted.stdout) as { tools: { name: string }[] }).tools.map((t) => t.name)).toContain(
      'evil_tool',
    );
    expect(p.marks()).toEqual(['mcp', 'plugin', 'user-mcp']);
  });
});
