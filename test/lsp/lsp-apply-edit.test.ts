/**
 * `workspace/applyEdit` from a server goes through the permission service like an edit (the person
 * sees the diff) and through the encoding-preserving write: allowed, the file changes and keeps its
 * CRLF line endings; denied, it stays as it was and the server is told it was not applied.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApplyEditHandler } from '../../src/app/lsp-edits.js';
import { LspService } from '../../src/lsp/service.js';
import { PermissionService } from '../../src/permission/service.js';
import type { PermissionRequest } from '../../src/permission/types.js';
import { fakePlan, readLog, tempProject, until } from './fake-server.js';

let service: LspService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

function setup(answer: 'allow' | 'deny') {
  const { dir, logFile } = tempProject();
  const permission = new PermissionService(dir, {});
  const asked: PermissionRequest[] = [];
  permission.onRequest((request) => {
    asked.push(request);
    permission.respond(request.id, answer);
  });
  const history: string[] = [];
  const lsp: LspService = new LspService({
    root: dir,
    servers: [fakePlan('apply-edit', logFile)],
    env: process.env,
    watch: false,
    onApplyEdit: createApplyEditHandler({
      cwd: dir,
      permission,
      fileHistory: { recordWrite: (s, p) => history.push(`${s} ${p}`) },
      lsp: () => lsp,
    }),
  });
  service = lsp;
  const file = join(dir, 'code.fk');
  writeFileSync(file, 'let oldName = 1;\r\nPLEASE_RENAME\r\n');
  return { file, logFile, asked, history, lsp };
}

describe('workspace/applyEdit', () => {
  it('asks permission with the diff, then writes keeping CRLF', async () => {
    const { file, logFile, asked, history, lsp } = setup('allow');
    lsp.viewed(file, 'let oldName = 1;\n', 'session-7');
    await lsp.changed([{ path: file, text: 'let oldName = 1;\nPLEASE_RENAME\n' }], { tag: 'session-7' });
    await until('the answer', () => readLog(logFile).some((e) => e.answer === 'workspace/applyEdit'));
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({
      sessionId: 'session-7',
      toolName: 'edit',
      action: 'write',
      description: `Language server edit (Rename): replace content in file ${file}`,
      path: file,
    });
    expect(asked[0]!.params.diff).toContain('-let oldName = 1;\n+let newName = 1;');
    expect(readLog(logFile).find((e) => e.answer === 'workspace/applyEdit')!.result).toEqual({ applied: true });
    expect(readFileSync(file, 'utf8')).toBe('let newName = 1;\r\nPLEASE_RENAME\r\n');
    expect(history).toEqual([`session-7 ${file}`]);
  });

  it('denied: the file is unchanged and the server hears it was not applied', async () => {
    const { file, logFile, asked, lsp } = setup('deny');
    lsp.viewed(file, 'let oldName = 1;\n', 'session-7');
    await lsp.changed([{ path: file, text: 'let oldName = 1;\nPLEASE_RENAME\n' }], { tag: 'session-7' });
    await until('the answer', () => readLog(logFile).some((e) => e.answer === 'workspace/applyEdit'));
    expect(asked).toHaveLength(1);
    expect(readLog(logFile).find((e) => e.answer === 'workspace/applyEdit')!.result).toEqual({
      applied: false,
      failureReason: 'not allowed: Permission denied',
    });
    expect(readFileSync(file, 'utf8')).toBe('let oldName = 1;\r\nPLEASE_RENAME\r\n');
  });
});
