/**
 * "Run outside the sandbox" with the real parts: the permission service, the bash tool and its shell
 * in the bubblewrap sandbox.
 * - A command the analysis sees reaching where the sandbox refuses (a write outside the project) is
 *   offered the choice at once; chosen, the write happens.
 * - A command whose reach the analysis cannot see (a project script that writes outside) is not; the
 *   sandbox refuses it and the model is told so; sent again, the request offers the choice.
 * - Commands that work inside (a write in the project), or a run with no sandbox, are never offered it.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { analyseForPermission } from '../../src/permission/command-subject.js';
import { permissionChoices } from '../../src/permission/choices.js';
import { PermissionService } from '../../src/permission/service.js';
import type { PermissionDecision, PermissionRequest } from '../../src/permission/types.js';
import { detectSandbox } from '../../src/sandbox/detect.js';
import { createSandbox, sandboxSettings } from '../../src/sandbox/index.js';
import { bashTool } from '../../src/tools/bash.js';
import { createShell } from '../../src/tools/shell.js';
import { runTool, toolContext } from '../support/tool-context.js';

const CAN_RUN = (await detectSandbox()).backend === 'bubblewrap';
const cleanup: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** A project, a folder outside it and a HOME; a shell with the sandbox in `mode`; a service answering `answers` in turn. */
function setUp(mode: 'auto' | 'off', answers: PermissionDecision[]) {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'opencode-escape-')));
  cleanup.push(() => rmSync(root, { recursive: true, force: true }));
  const project = join(root, 'project');
  const outside = join(root, 'outside');
  const home = join(root, 'home');
  for (const dir of [project, outside, home]) mkdirSync(dir, { recursive: true });
  const sandbox = createSandbox({ settings: sandboxSettings(mode), projectDir: project, home });
  const shell = createShell({ cwd: project, sandbox, env: { HOME: home } });
  cleanup.push(async () => {
    shell.close();
    await sandbox.close();
  });
  const service = new PermissionService(project);
  const asked: PermissionRequest[] = [];
  service.onRequest((request) => {
    asked.push(request);
    queueMicrotask(() => service.respond(request.id, answers.shift()!));
  });
  const ctx = { ...toolContext(project), shell: () => shell };
  ctx.askPermission = (input, subject) => service.request('s1', 'bash', { ...input, subject }, ctx.signal);
  return { project, outside, ctx, asked };
}

const INSIDE: PermissionDecision[] = ['allow', 'allow_session', 'allow_always', 'deny'];
const WITH_ESCAPE: PermissionDecision[] = ['allow', 'allow_session', 'allow_always', 'allow_outside_sandbox', 'deny'];

describe.skipIf(!CAN_RUN)('bash: running a command outside the sandbox', () => {
  it('a write outside the project is offered the way out at once; chosen, the write happens', async () => {
    const { outside, ctx, asked } = setUp('auto', ['allow_outside_sandbox']);
    const result = await runTool(bashTool, { command: `touch ${outside}/f` }, ctx);
    expect(asked.map((r) => permissionChoices(r))).toEqual([WITH_ESCAPE]);
    expect(result).toMatchObject({ isError: false });
    expect(existsSync(join(outside, 'f'))).toBe(true);
  });

  it('the same, kept inside by "allow": the sandbox refuses it and says so', async () => {
    const { outside, ctx, asked } = setUp('auto', ['allow']);
    const result = await runTool(bashTool, { command: `touch ${outside}/f` }, ctx);
    expect(asked.map((r) => permissionChoices(r))).toEqual([WITH_ESCAPE]);
    expect(result.isError).toBe(true);
    expect(result.output).toContain(
      "not the program's fault. Run it in another way, or ask the person to run it outside the sandbox.",
    );
    expect(existsSync(join(outside, 'f'))).toBe(false);
  });

  it('a project script that writes outside: offered only on the retry after the refusal', async () => {
    const { project, outside, ctx, asked } = setUp('auto', ['allow', 'allow_outside_sandbox']);
    writeFileSync(join(project, 'mk.sh'), `#!/bin/sh\ntouch ${outside}/f\n`);
    chmodSync(join(project, 'mk.sh'), 0o755);
    const first = await runTool(bashTool, { command: './mk.sh' }, ctx);
    expect(first.isError).toBe(true);
    expect(first.output).toContain("not the program's fault");
    expect(existsSync(join(outside, 'f'))).toBe(false);
    const second = await runTool(bashTool, { command: './mk.sh' }, ctx);
    expect(asked.map((r) => permissionChoices(r).includes('allow_outside_sandbox'))).toEqual([false, true]);
    expect(second).toMatchObject({ isError: false });
    expect(existsSync(join(outside, 'f'))).toBe(true);
  });

  it('a write in the project works inside: not offered', async () => {
    const { project, ctx, asked } = setUp('auto', ['allow']);
    const result = await runTool(bashTool, { command: 'rm -f notes.txt && touch notes.txt' }, ctx);
    expect(asked.map((r) => permissionChoices(r))).toEqual([INSIDE]);
    expect(result).toMatchObject({ isError: false });
    expect(existsSync(join(project, 'notes.txt'))).toBe(true);
  });
});

describe('bash: with no sandbox there is nothing to run outside of', () => {
  it('a write outside the project asks without the choice', async () => {
    const { outside, ctx, asked } = setUp('off', ['allow']);
    const result = await runTool(bashTool, { command: `touch ${outside}/f` }, ctx);
    expect(asked.map((r) => permissionChoices(r))).toEqual([INSIDE]);
    expect(result).toMatchObject({ isError: false });
    expect(existsSync(join(outside, 'f'))).toBe(true);
  });
});

describe('the permission service: which sandboxed commands are offered the way out at once', () => {
  /** The choices the request for `command` offers, run by a sandboxed shell or not. */
  async function offered(command: string, sandboxed: boolean): Promise<PermissionDecision[]> {
    const project = realpathSync(mkdtempSync(join(tmpdir(), 'opencode-escape-')));
    cleanup.push(() => rmSync(project, { recursive: true, force: true }));
    const service = new PermissionService(project);
    let choices: PermissionDecision[] = [];
    service.onRequest((request) => {
      choices = permissionChoices(request);
      queueMicrotask(() => service.respond(request.id, 'deny'));
    });
    const { subject } = await analyseForPermission(command, { cwd: project, home: '/home/u' });
    const input = {
      action: 'execute',
      description: command,
      params: { command },
      ...(sandboxed ? { sandboxed: true } : {}),
    };
    await service.request('s1', 'bash', { ...input, subject }).catch(() => undefined);
    return choices;
  }

  it.each([
    ['a write outside the project', 'cp a.txt /etc/motd'],
    ['a write to a file that decides what runs', 'cp hook.sh .git/hooks/pre-commit'],
    ['a system change that names no path', 'apt-get install -y cowsay'],
    [
      "a global install (npm's global folder, known only when it runs, outside the project all the same)",
      'npm install -g cowsay',
    ],
    ["a tool's folder in HOME", 'pip install --user cowsay'],
  ])('%s: offered', async (_what, command) => {
    expect(await offered(command, true)).toContain('allow_outside_sandbox');
    expect(await offered(command, false)).not.toContain('allow_outside_sandbox');
  });

  it.each([
    ['a write in the project', 'touch notes.txt'],
    ['a write to a place known only when it runs', 'touch "$(cat where)"'],
    ['a write under $TMPDIR', 'echo x > $TMPDIR/a'],
    ['a loop over the project', 'for f in *.txt; do cp $f $f.bak; done'],
    ['a connection bash opens (approved, it runs with the network on)', 'cat < /dev/tcp/example.com/80'],
    ['a program run from the project', 'make build'],
    ['git in the project', 'git commit -m x'],
  ])('%s: not offered up front (it works inside, or a refusal offers it on the retry)', async (_what, command) => {
    expect(await offered(command, true)).not.toContain('allow_outside_sandbox');
  });
});
