/**
 * `opencode -p` approves what would ask (the original's behaviour), except what only a person may
 * allow when nothing contains it: a file tool's change outside the project or to a file that decides
 * what runs, and a read of a secret place. Those are refused with a line that says why; a command's
 * writes are left to the sandbox. The real file tools ask a real PermissionService in unattended mode.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { analyseForPermission } from '../../src/permission/command-subject.js';
import { permissionRules } from '../../src/permission/rules.js';
import { PermissionService } from '../../src/permission/service.js';
import type { PermissionAskInput, PermissionSubject } from '../../src/permission/types.js';
import type { Tool } from '../../src/tools/tool.js';
import { viewTool } from '../../src/tools/view.js';
import { writeTool } from '../../src/tools/write.js';
import { runTool, toolContext } from '../support/tool-context.js';

let root: string;
let project: string;
let home: string;
const savedHome = process.env.HOME;

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'opencode-unattended-')));
  project = join(root, 'project');
  home = join(root, 'home');
  mkdirSync(join(project, '.git', 'hooks'), { recursive: true });
  mkdirSync(join(home, '.ssh'), { recursive: true });
  writeFileSync(join(home, '.ssh', 'id_rsa'), 'FAKE-KEY-5678\n');
  process.env.HOME = home;
});
afterEach(() => {
  process.env.HOME = savedHome;
  rmSync(root, { recursive: true, force: true });
});

/** A service in -p's default mode (approve what would ask); `config` the permission rules. */
function unattended(config: Record<string, unknown> = {}) {
  const service = new PermissionService(project, { rules: permissionRules(config as never) });
  service.setUnattended({ autoApprove: true });
  const asked: string[] = [];
  service.onRequest((request) => asked.push(request.description));
  const ctx = (tool: Tool) => ({
    ...toolContext(project),
    askPermission: (input: PermissionAskInput, subject?: PermissionSubject) =>
      service.request('s', tool.name, { ...input, subject }),
  });
  return { service, asked, ctx };
}

describe('opencode -p: what only a person may allow is refused, the rest approved', () => {
  it('write inside the project: approved', async () => {
    const { ctx, asked } = unattended();
    const result = await runTool(writeTool, { file_path: join(project, 'a.txt'), content: 'x\n' }, ctx(writeTool));
    expect(result.isError).toBe(false);
    expect(readFileSync(join(project, 'a.txt'), 'utf8')).toBe('x\n');
    expect(asked).toEqual([]);
  });

  it.each([
    ['a file outside the project', () => join(home, '.bashrc'), 'outside the project'],
    ['a git hook', () => join(project, '.git', 'hooks', 'pre-commit'), '.git/hooks'],
    ['.opencode.json', () => join(project, '.opencode.json'), '.opencode.json'],
  ])('write of %s: refused, nothing written, even under "*": "allow"', async (_name, path, reason) => {
    for (const config of [{}, { '*': 'allow' }]) {
      const { ctx, asked } = unattended(config);
      const result = await runTool(writeTool, { file_path: path(), content: 'echo pwned\n' }, ctx(writeTool));
      expect(result.isError).toBe(true);
      expect(result.output).toContain('opencode -p approves no such call without a person');
      expect(result.output).toContain(reason);
      expect(existsSync(path())).toBe(false);
      expect(asked).toEqual([]);
    }
  });

  it('view of a secret place: refused, nothing of it read', async () => {
    const { ctx } = unattended({ view: 'allow' });
    const result = await runTool(viewTool, { file_path: join(home, '.ssh', 'id_rsa') }, ctx(viewTool));
    expect(result.isError).toBe(true);
    expect(result.output).toContain('opencode -p approves no such call without a person');
    expect(result.output).not.toContain('FAKE-KEY-5678');
  });

  it('a command writing outside the project is approved: the sandbox, not the analysis, contains it', async () => {
    const { service } = unattended();
    const { subject } = await analyseForPermission(`echo x > ${join(home, 'out.txt')}`, {
      cwd: project,
      home,
      projectDir: project,
    });
    await expect(
      service.request('s', 'bash', { action: 'execute', description: 'Execute command', params: {}, subject }),
    ).resolves.toEqual({ by: 'unattended', outsideSandbox: false });
  });

  it('with a person (no unattended mode) the same write asks', async () => {
    const service = new PermissionService(project, { rules: permissionRules(undefined) });
    const asked: string[] = [];
    service.onRequest((request) => {
      asked.push(request.description);
      service.respond(request.id, 'allow');
    });
    const ctx = {
      ...toolContext(project),
      askPermission: (input: PermissionAskInput, subject?: PermissionSubject) =>
        service.request('s', 'write', { ...input, subject }),
    };
    const result = await runTool(writeTool, { file_path: join(home, '.bashrc'), content: 'ok\n' }, ctx);
    expect(result.isError).toBe(false);
    expect(asked.length).toBe(1);
  });
});
