/**
 * "Run outside the sandbox" from the first refusal to the run, with the real parts: the permission
 * service, the bash tool and its shell in the bubblewrap sandbox. The person approves a write outside
 * the project; the sandbox refuses it and the model is told so. When the model sends the command again
 * the request offers "Run outside the sandbox"; chosen, the command runs outside and the file is there.
 */
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
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

describe.skipIf(!CAN_RUN)('bash: after the sandbox refused a command, the person may run it outside', () => {
  it('offers the choice only on the retry; chosen, the write outside happens', async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'opencode-escape-')));
    cleanup.push(() => rmSync(root, { recursive: true, force: true }));
    const project = join(root, 'project');
    const outside = join(root, 'outside');
    const home = join(root, 'home');
    for (const dir of [project, outside, home]) mkdirSync(dir, { recursive: true });
    const sandbox = createSandbox({ settings: sandboxSettings('auto'), projectDir: project, home });
    const shell = createShell({ cwd: project, sandbox, env: { HOME: home } });
    cleanup.push(async () => {
      shell.close();
      await sandbox.close();
    });

    const service = new PermissionService(project);
    const asked: PermissionRequest[] = [];
    const answers: PermissionDecision[] = ['allow', 'allow_outside_sandbox'];
    service.onRequest((request) => {
      asked.push(request);
      queueMicrotask(() => service.respond(request.id, answers.shift()!));
    });
    const ctx = { ...toolContext(project), shell: () => shell };
    ctx.askPermission = (input, subject) => service.request('s1', 'bash', { ...input, subject }, ctx.signal);
    const command = `touch ${outside}/f`;

    const first = await runTool(bashTool, { command }, ctx);
    expect(first.isError).toBe(true);
    expect(first.output).toContain("not the program's fault. Run it in another way, or ask the person to run it outside the sandbox.");
    expect(existsSync(join(outside, 'f'))).toBe(false);

    const second = await runTool(bashTool, { command }, ctx);
    expect(asked.map((r) => permissionChoices(r))).toEqual([
      ['allow', 'allow_session', 'allow_always', 'deny'],
      ['allow', 'allow_session', 'allow_always', 'allow_outside_sandbox', 'deny'],
    ]);
    expect(second).toMatchObject({ isError: false });
    expect(existsSync(join(outside, 'f'))).toBe(true);
  });
});
