/**
 * The file tools' reads of secret places ask: `view`, `ls`, `glob` and `grep` of `~/.ssh`, `~/.aws`,
 * … (the sandbox's table of places holding credentials), also through a link in the project, while
 * other reads outside the project stay free. A temp HOME with fake keys; the tools' requests go to a
 * real PermissionService whose questions are recorded and answered.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { permissionRules } from '../../src/permission/rules.js';
import { PermissionService } from '../../src/permission/service.js';
import type { PermissionAskInput, PermissionSubject } from '../../src/permission/types.js';
import { globTool } from '../../src/tools/glob.js';
import { grepTool } from '../../src/tools/grep.js';
import { lsTool } from '../../src/tools/ls.js';
import type { Tool, ToolResult } from '../../src/tools/tool.js';
import { viewTool } from '../../src/tools/view.js';
import { runTool, toolContext } from '../support/tool-context.js';

const KEY = 'FAKE-PRIVATE-KEY-1234';

let root: string;
let home: string;
let project: string;
let savedHome: string | undefined;

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'opencode-secret-reads-')));
  home = join(root, 'home');
  project = join(root, 'project');
  mkdirSync(join(home, '.ssh'), { recursive: true });
  mkdirSync(join(home, '.aws'), { recursive: true });
  mkdirSync(project);
  writeFileSync(join(home, '.ssh', 'id_rsa'), `${KEY}\n`);
  writeFileSync(join(home, '.aws', 'credentials'), `aws_secret_access_key = ${KEY}\n`);
  writeFileSync(join(home, 'notes.txt'), 'plain notes\n');
  mkdirSync(join(home, 'docs'));
  writeFileSync(join(home, 'docs', 'notes.md'), 'plain notes\n');
  writeFileSync(join(project, 'a.txt'), 'project text\n');
  symlinkSync(join(home, '.ssh', 'id_rsa'), join(project, 'key'));
  savedHome = process.env.HOME;
  process.env.HOME = home;
});
afterEach(() => {
  if (savedHome === undefined) delete process.env.HOME;
  else process.env.HOME = savedHome;
  rmSync(root, { recursive: true, force: true });
});

/** Runs `tool` in the project; every question is recorded (its description) and answered with `answer`. */
async function run(
  tool: Tool,
  input: Record<string, unknown>,
  answer: 'allow' | 'deny',
  secretReadPaths?: string[],
): Promise<{ asked: string[]; result: ToolResult }> {
  const service = new PermissionService(project, { rules: permissionRules(undefined) });
  const asked: string[] = [];
  service.onRequest((request) => {
    asked.push(request.description);
    service.respond(request.id, answer);
  });
  const ctx = {
    ...toolContext(project),
    secretReadPaths,
    askPermission: (input: PermissionAskInput, subject?: PermissionSubject) =>
      service.request('s', tool.name, { ...input, subject }),
  };
  return { asked, result: await runTool(tool, input, ctx) };
}

describe('a read of a secret place asks; denied, nothing of it is read', () => {
  it('view ~/.ssh/id_rsa', async () => {
    const denied = await run(viewTool, { file_path: join(home, '.ssh', 'id_rsa') }, 'deny');
    expect(denied.asked).toEqual([`view reads ${join(home, '.ssh', 'id_rsa')}, which holds SSH private keys`]);
    expect(denied.result.output).not.toContain(KEY);
    expect(denied.result.isError).toBe(true);
    const allowed = await run(viewTool, { file_path: join(home, '.ssh', 'id_rsa') }, 'allow');
    expect(allowed.result.output).toContain(KEY);
  });

  it('view of a link in the project to ~/.ssh/id_rsa', async () => {
    const { asked, result } = await run(viewTool, { file_path: 'key' }, 'deny');
    expect(asked).toEqual([`view reads ${join(home, '.ssh', 'id_rsa')}, which holds SSH private keys`]);
    expect(result.output).not.toContain(KEY);
  });

  it.runIf(process.platform === 'linux')("view of opencode's own /proc environment", async () => {
    for (const file of ['/proc/self/environ', `/proc/${process.pid}/environ`]) {
      const { asked } = await run(viewTool, { file_path: file }, 'deny');
      expect(asked).toEqual([
        `view reads ${file}, which holds opencode's own environment, with the keys it was started with`,
      ]);
    }
  });

  it('ls ~/.ssh', async () => {
    const { asked, result } = await run(lsTool, { path: join(home, '.ssh') }, 'deny');
    expect(asked).toEqual([`ls reads ${join(home, '.ssh')}, which holds SSH private keys`]);
    expect(result.output).not.toContain('id_rsa');
  });

  it('glob of ~/.aws/*', async () => {
    const { asked, result } = await run(globTool, { pattern: '*', path: join(home, '.aws') }, 'deny');
    expect(asked).toEqual([`glob reads ${join(home, '.aws')}, which holds AWS credentials`]);
    expect(result.output).not.toContain('credentials');
  });

  it('glob from home with a pattern naming .ssh', async () => {
    const { asked, result } = await run(globTool, { pattern: '.ssh/*', path: home }, 'deny');
    expect(asked).toEqual([`glob reads ${join(home, '.ssh')}, which holds SSH private keys`]);
    expect(result.output).not.toContain('id_rsa');
  });

  it('grep from the home directory, whose hidden folders it searches', async () => {
    const { asked, result } = await run(grepTool, { pattern: 'KEY', path: home }, 'deny');
    expect(asked).toEqual([`grep reads ${join(home, '.ssh')}, which holds SSH private keys`]);
    expect(result.output).not.toContain(KEY);
  });

  it('grep in ~/.aws', async () => {
    const { asked, result } = await run(grepTool, { pattern: 'secret', path: join(home, '.aws') }, 'deny');
    expect(asked).toEqual([`grep reads ${join(home, '.aws')}, which holds AWS credentials`]);
    expect(result.output).not.toContain(KEY);
  });
});

describe("the places the config's sandbox.denyRead adds", () => {
  it('are guarded as ~/.ssh is: relative to the project, or under ~', async () => {
    mkdirSync(join(project, 'secrets'));
    writeFileSync(join(project, 'secrets', 'token'), `${KEY}\n`);
    writeFileSync(join(home, 'vault.txt'), `${KEY}\n`);
    const secretReadPaths = ['secrets', '~/vault.txt'];
    const reason = 'what sandbox.denyRead in the configuration keeps from commands';
    expect((await run(viewTool, { file_path: 'secrets/token' }, 'deny', secretReadPaths)).asked).toEqual([
      `view reads ${join(project, 'secrets', 'token')}, which holds ${reason}`,
    ]);
    expect((await run(viewTool, { file_path: join(home, 'vault.txt') }, 'deny', secretReadPaths)).asked).toEqual([
      `view reads ${join(home, 'vault.txt')}, which holds ${reason}`,
    ]);
    expect((await run(viewTool, { file_path: 'a.txt' }, 'deny', secretReadPaths)).asked).toEqual([]);
  });
});

describe('other reads, in the project or outside it, stay free', () => {
  it.each([
    ['view outside the project', viewTool, () => ({ file_path: join(home, 'notes.txt') }), 'plain notes'],
    ['view in the project', viewTool, () => ({ file_path: 'a.txt' }), 'project text'],
    ['ls of the home directory (names only; dot entries are not listed)', lsTool, () => ({ path: home }), 'notes.txt'],
    ['glob from the home directory', globTool, () => ({ pattern: '*.txt', path: home }), 'notes.txt'],
    [
      'grep from a folder beside the secret places',
      grepTool,
      () => ({ pattern: 'plain', path: join(home, 'docs') }),
      'plain notes',
    ],
  ] as const)('%s', async (_, tool, input, expected) => {
    const { asked, result } = await run(tool, input(), 'deny');
    expect(asked).toEqual([]);
    expect(result.output).toContain(expected);
  });
});

describe('rules do not read a secret place without the person', () => {
  /** Runs view of `~/.ssh/id_rsa` twice under `config`, answering `answer` to each question. */
  async function twice(
    config: Record<string, unknown>,
    answer: 'allow_session' | 'deny',
  ): Promise<{ asked: string[]; results: ToolResult[] }> {
    const service = new PermissionService(project, { rules: permissionRules(config as never) });
    const asked: string[] = [];
    service.onRequest((request) => {
      asked.push(request.description);
      service.respond(request.id, answer);
    });
    const ctx = {
      ...toolContext(project),
      askPermission: (input: PermissionAskInput, subject?: PermissionSubject) =>
        service.request('s', 'view', { ...input, subject }),
    };
    const results = [];
    for (let i = 0; i < 2; i++) results.push(await runTool(viewTool, { file_path: join(home, '.ssh', 'id_rsa') }, ctx));
    return { asked, results };
  }
  const question = () => `view reads ${join(home, '.ssh', 'id_rsa')}, which holds SSH private keys`;

  it('a tool-wide allow rule ("view": "allow") still asks, and a session grant covers nothing', async () => {
    const { asked, results } = await twice({ view: 'allow' }, 'allow_session');
    expect(asked).toEqual([question(), question()]);
    expect(results.map((r) => r.output.includes(KEY))).toEqual([true, true]);
  });

  it('allow-all ("*": "allow") still asks', async () => {
    const { asked } = await twice({ '*': 'allow' }, 'deny');
    expect(asked).toEqual([question(), question()]);
  });

  it('a deny rule naming the place refuses without asking', async () => {
    const { asked, results } = await twice({ view: { '*': 'allow', [`${home}/.ssh/*`]: 'deny' } }, 'allow_session');
    expect(asked).toEqual([]);
    expect(results.every((r) => r.isError && !r.output.includes(KEY))).toBe(true);
  });

  it('other reads outside the project stay free under the same rules', async () => {
    const service = new PermissionService(project, { rules: permissionRules({ view: 'allow' } as never) });
    const asked: string[] = [];
    service.onRequest((request) => asked.push(request.description));
    const ctx = {
      ...toolContext(project),
      askPermission: (input: PermissionAskInput, subject?: PermissionSubject) =>
        service.request('s', 'view', { ...input, subject }),
    };
    const result = await runTool(viewTool, { file_path: join(home, 'notes.txt') }, ctx);
    expect(asked).toEqual([]);
    expect(result.output).toContain('plain notes');
  });
});
