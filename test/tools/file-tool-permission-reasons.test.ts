/**
 * The reason line of a file tool's permission request says what the call does to the file: a
 * `write` or `edit` that makes a new file "creates a file" (it said "changes a file"), patch's Add
 * File creates, Delete File deletes, a move deletes its source and creates its destination. The
 * tools' requests go to a real PermissionService; every question is recorded and denied.
 */
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FILE_CHANGE_REASONS } from '../../src/permission/policy.js';
import { permissionRules } from '../../src/permission/rules.js';
import { PermissionService } from '../../src/permission/service.js';
import type { PermissionAskInput, PermissionSubject } from '../../src/permission/types.js';
import { editTool } from '../../src/tools/edit.js';
import { patchTool } from '../../src/tools/patch.js';
import { viewTool } from '../../src/tools/view.js';
import { writeTool } from '../../src/tools/write.js';
import { runTool, toolContext } from '../support/tool-context.js';

let project: string;

beforeEach(() => {
  project = realpathSync(mkdtempSync(join(tmpdir(), 'opencode-reasons-')));
  writeFileSync(join(project, 'old.txt'), 'one\n');
});
afterEach(() => rmSync(project, { recursive: true, force: true }));

/** The reasons of the one question `run` asks (denied), after `old.txt` was read with view. */
async function reasonsOf(run: (ctx: ReturnType<typeof toolContext>) => Promise<unknown>): Promise<string[][]> {
  const service = new PermissionService(project, { rules: permissionRules(undefined) });
  const asked: string[][] = [];
  service.onRequest((request) => {
    asked.push(request.reasons ?? []);
    service.respond(request.id, 'deny');
  });
  const ctx = {
    ...toolContext(project),
    askPermission: (input: PermissionAskInput, subject?: PermissionSubject) =>
      service.request('s', 'write', { ...input, subject }),
  };
  await runTool(viewTool, { file_path: 'old.txt' }, ctx);
  await run(ctx);
  return asked;
}

const patch = (...lines: string[]) => ({ patch_text: ['*** Begin Patch', ...lines, '*** End Patch'].join('\n') });

describe('a file tool says what it does to the file', () => {
  it('has the three reasons', () => {
    expect(FILE_CHANGE_REASONS).toEqual({
      change: 'changes a file',
      create: 'creates a file',
      delete: 'deletes a file',
    });
  });

  it.each<[string, (ctx: ReturnType<typeof toolContext>) => Promise<unknown>, string[]]>([
    [
      'write of a new file creates it',
      (ctx) => runTool(writeTool, { file_path: 'new.txt', content: 'x\n' }, ctx),
      ['new.txt: creates a file'],
    ],
    [
      'write over a file changes it',
      (ctx) => runTool(writeTool, { file_path: 'old.txt', content: 'two\n' }, ctx),
      ['old.txt: changes a file'],
    ],
    [
      'edit with an empty old_string creates',
      (ctx) => runTool(editTool, { file_path: 'new.txt', old_string: '', new_string: 'x\n' }, ctx),
      ['new.txt: creates a file'],
    ],
    [
      'edit of a file changes it',
      (ctx) => runTool(editTool, { file_path: 'old.txt', old_string: 'one', new_string: 'two' }, ctx),
      ['old.txt: changes a file'],
    ],
    [
      'patch Add File creates',
      (ctx) => runTool(patchTool, patch('*** Add File: new.txt', '+x'), ctx),
      ['new.txt: creates a file'],
    ],
    [
      'patch Update File changes',
      (ctx) => runTool(patchTool, patch('*** Update File: old.txt', '@@', '-one', '+two'), ctx),
      ['old.txt: changes a file'],
    ],
    [
      'patch Delete File deletes',
      (ctx) => runTool(patchTool, patch('*** Delete File: old.txt'), ctx),
      ['old.txt: deletes a file'],
    ],
    [
      'patch Move to deletes the source and creates the destination',
      (ctx) =>
        runTool(patchTool, patch('*** Update File: old.txt', '*** Move to: moved.txt', '@@', '-one', '+two'), ctx),
      ['old.txt: deletes a file', 'moved.txt: creates a file'],
    ],
  ])('%s', async (_name, run, reasons) => {
    expect(await reasonsOf(run)).toEqual([reasons]);
  });
});
