/**
 * With an editor that offers `fs/read_text_file` and `fs/write_text_file`, the file tools work on the
 * editor's buffers: `view` shows an open buffer's unsaved text, `edit` and `patch` match against it
 * and hand the editor the whole new text, and "changed since read" means the buffer's text changed.
 * The test client's buffers stand for the editor's: `fs/read_text_file` answers them instead of the
 * disk, and with `saveWrites` false `fs/write_text_file` only changes them, so the disk shows what
 * the editor did not save.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acpPerTest } from '../support/acp-per-test.js';
import { cleanEnv } from '../support/cli.js';
import type { FakeProvider, FakeTurn } from '../support/fake-provider.js';
import { titleTurn, type AcpAgentProcess, toolResultsSent } from './acp-client.js';

let fake: FakeProvider | undefined;
let agent: AcpAgentProcess | undefined;
const acp = acpPerTest();

/** An agent in `dir` against a fake provider with `turns`; the editor offers `fs` as given. Returns the session id. */
async function start(
  dir: string,
  turns: FakeTurn[],
  fs: { readTextFile: boolean; writeTextFile: boolean },
): Promise<string> {
  fake = await acp.startFake(turns, { sideTurn: titleTurn('Buffers') });
  agent = acp.startAgent({
    cwd: dir,
    env: cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.anthropicBaseURL }),
  });
  await agent.agent.request('initialize', { protocolVersion: 1, clientCapabilities: { fs } });
  const { sessionId } = await agent.agent.request('session/new', { cwd: dir, mcpServers: [] });
  return sessionId;
}

async function prompt(sessionId: string, text: string): Promise<unknown> {
  return agent!.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] });
}

describe('opencode acp: the file tools on the editor buffers', () => {
  it('view shows the unsaved buffer; an edit of text only the buffer has goes to the editor whole; the disk is untouched', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-acp-buffer-'));
    const file = join(dir, 'a.txt');
    writeFileSync(file, 'alpha\n');
    const sessionId = await start(
      dir,
      [
        { toolCalls: [{ name: 'view', input: { file_path: 'a.txt' } }] },
        {
          toolCalls: [
            { name: 'edit', input: { file_path: 'a.txt', old_string: 'beta typed but not saved', new_string: 'BETA' } },
          ],
        },
        { text: 'Done.' },
      ],
      { readTextFile: true, writeTextFile: true },
    );
    agent!.buffers.set(file, 'alpha\nbeta typed but not saved\n');
    agent!.saveWrites = false;
    expect(await prompt(sessionId, 'capitalise beta')).toEqual({ stopReason: 'end_turn' });
    expect(toolResultsSent(fake!, 1)).toEqual(['<file>\n     1|alpha\n     2|beta typed but not saved\n</file>\n']);
    expect(toolResultsSent(fake!, 2)).toEqual([
      `<result>\nContent replaced in file: ${file}\n</result>\n<snippet>\n     1|alpha\n     2|BETA\n</snippet>\n`,
    ]);
    expect(agent!.writes).toEqual([{ sessionId, path: file, content: 'alpha\nBETA\n' }]);
    expect(agent!.buffers.get(file)).toBe('alpha\nBETA\n');
    expect(readFileSync(file, 'utf8')).toBe('alpha\n');
  });

  it('text typed in the buffer while the permission question is open refuses the edit: nothing is written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-acp-typed-'));
    const file = join(dir, 'a.txt');
    writeFileSync(file, 'alpha\n');
    const sessionId = await start(
      dir,
      [
        { toolCalls: [{ name: 'view', input: { file_path: 'a.txt' } }] },
        { toolCalls: [{ name: 'edit', input: { file_path: 'a.txt', old_string: 'alpha', new_string: 'ALPHA' } }] },
        { text: 'It changed; I will read it again.' },
      ],
      { readTextFile: true, writeTextFile: true },
    );
    agent!.answer = () => {
      agent!.buffers.set(file, 'alpha\ntyped meanwhile\n');
      return { outcome: { outcome: 'selected', optionId: 'allow' } };
    };
    expect(await prompt(sessionId, 'capitalise alpha')).toEqual({ stopReason: 'end_turn' });
    expect(toolResultsSent(fake!, 2)).toEqual([
      `File ${file} changed while waiting for permission. Read it again with the view tool and redo the change.`,
    ]);
    expect(agent!.writes).toEqual([]);
    expect(readFileSync(file, 'utf8')).toBe('alpha\n');
  });

  it('a buffer changed after view counts as modified since read; saving it unchanged does not', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-acp-modified-'));
    const file = join(dir, 'a.txt');
    writeFileSync(file, 'alpha\n');
    const sessionId = await start(
      dir,
      [
        { toolCalls: [{ name: 'view', input: { file_path: 'a.txt' } }] },
        { text: 'Read.' },
        { toolCalls: [{ name: 'write', input: { file_path: 'a.txt', content: 'replaced\n' } }] },
        { text: 'It changed.' },
        { toolCalls: [{ name: 'view', input: { file_path: 'a.txt' } }] },
        { text: 'Read again.' },
        { toolCalls: [{ name: 'write', input: { file_path: 'a.txt', content: 'replaced\n' } }] },
        { text: 'Written.' },
      ],
      { readTextFile: true, writeTextFile: true },
    );
    expect(await prompt(sessionId, 'read a.txt')).toEqual({ stopReason: 'end_turn' });
    // the person types in the buffer
    agent!.buffers.set(file, 'alpha\nmore\n');
    expect(await prompt(sessionId, 'replace a.txt')).toEqual({ stopReason: 'end_turn' });
    expect(toolResultsSent(fake!, 3)).toEqual([
      `File ${file} has been modified since it was last read (in the editor or on disk).\n\nRead it again with the view tool before overwriting it.`,
    ]);
    expect(await prompt(sessionId, 'read it again')).toEqual({ stopReason: 'end_turn' });
    expect(toolResultsSent(fake!, 5)).toEqual(['<file>\n     1|alpha\n     2|more\n</file>\n']);
    // then saves it: a new mtime and size on disk, the same text in the editor
    writeFileSync(file, 'alpha\nmore\n');
    agent!.buffers.delete(file);
    expect(await prompt(sessionId, 'replace a.txt')).toEqual({ stopReason: 'end_turn' });
    expect(toolResultsSent(fake!, 7)).toEqual([`<result>\nFile successfully written: ${file}\n</result>`]);
    expect(agent!.writes).toEqual([{ sessionId, path: file, content: 'replaced\n' }]);
    expect(readFileSync(file, 'utf8')).toBe('replaced\n');
  });

  it('patch matches the buffers and hands every updated and added file to the editor; a deleted file goes from disk after', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-acp-patch-'));
    const [a, b, c, old] = ['a.txt', 'b.txt', 'c.txt', 'old.txt'].map((name) => join(dir, name));
    writeFileSync(a, 'export const a = 1;\n');
    writeFileSync(b, 'export const b = 1;\r\nexport const bb = 2;\r\n');
    writeFileSync(old, 'gone\n');
    const patch = [
      '*** Begin Patch',
      '*** Update File: a.txt',
      '@@',
      ' export const a = 1;',
      '-export const unsaved = true;',
      '+export const saved = true;',
      '*** Update File: b.txt',
      '@@',
      '-export const b = 1;',
      '+export const b = 10;',
      ' export const bb = 2;',
      '*** Add File: c.txt',
      '+export const c = 3;',
      '*** Delete File: old.txt',
      '*** End Patch',
    ].join('\n');
    const sessionId = await start(
      dir,
      [
        { toolCalls: ['a.txt', 'b.txt', 'old.txt'].map((file_path) => ({ name: 'view', input: { file_path } })) },
        { toolCalls: [{ name: 'patch', input: { patch_text: patch } }] },
        { text: 'Patched.' },
      ],
      { readTextFile: true, writeTextFile: true },
    );
    agent!.buffers.set(a, 'export const a = 1;\nexport const unsaved = true;\n');
    agent!.saveWrites = false;
    expect(await prompt(sessionId, 'patch them')).toEqual({ stopReason: 'end_turn' });
    expect(toolResultsSent(fake!, 2)).toEqual(['Patch applied successfully. 4 files changed, 3 additions, 3 removals']);
    expect(agent!.writes).toEqual([
      { sessionId, path: a, content: 'export const a = 1;\nexport const saved = true;\n' },
      { sessionId, path: b, content: 'export const b = 10;\r\nexport const bb = 2;\r\n' },
      { sessionId, path: c, content: 'export const c = 3;\n' },
    ]);
    // the editor did not save: the updated files' disk is as it was, the added one is only a buffer
    expect(readFileSync(a, 'utf8')).toBe('export const a = 1;\n');
    expect(readFileSync(b, 'utf8')).toBe('export const b = 1;\r\nexport const bb = 2;\r\n');
    expect(existsSync(c)).toBe(false);
    expect(existsSync(old)).toBe(false);
  });

  it('a move through the editor: the new path gets the text of the buffer, the old one is removed from disk', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-acp-patch-move-'));
    const [from, to] = [join(dir, 'from.txt'), join(dir, 'sub', 'to.txt')];
    writeFileSync(from, 'one\n');
    const patch = [
      '*** Begin Patch',
      '*** Update File: from.txt',
      '*** Move to: sub/to.txt',
      '@@',
      ' one',
      '-unsaved',
      '+two',
      '*** End Patch',
    ].join('\n');
    const sessionId = await start(
      dir,
      [
        { toolCalls: [{ name: 'view', input: { file_path: 'from.txt' } }] },
        { toolCalls: [{ name: 'patch', input: { patch_text: patch } }] },
        { text: 'Moved.' },
      ],
      { readTextFile: true, writeTextFile: true },
    );
    agent!.buffers.set(from, 'one\nunsaved\n');
    expect(await prompt(sessionId, 'move it')).toEqual({ stopReason: 'end_turn' });
    expect(toolResultsSent(fake!, 2)).toEqual(['Patch applied successfully. 1 files changed, 1 additions, 1 removals']);
    expect(agent!.writes).toEqual([{ sessionId, path: to, content: 'one\ntwo\n' }]);
    expect(readFileSync(to, 'utf8')).toBe('one\ntwo\n');
    expect(existsSync(from)).toBe(false);
  });

  it('a patch the editor refuses part of is taken back: the files written are given their text again, nothing is deleted', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-acp-patch-refused-'));
    const [a, b, old] = ['a.txt', 'b.txt', 'old.txt'].map((name) => join(dir, name));
    writeFileSync(a, 'a = 1\n');
    writeFileSync(b, 'b = 1\n');
    writeFileSync(old, 'gone\n');
    const patch = [
      '*** Begin Patch',
      '*** Update File: a.txt',
      '@@',
      '-a = 1',
      '+a = 2',
      '*** Update File: b.txt',
      '@@',
      '-b = 1',
      '+b = 2',
      '*** Delete File: old.txt',
      '*** End Patch',
    ].join('\n');
    const sessionId = await start(
      dir,
      [
        { toolCalls: ['a.txt', 'b.txt', 'old.txt'].map((file_path) => ({ name: 'view', input: { file_path } })) },
        { toolCalls: [{ name: 'patch', input: { patch_text: patch } }] },
        { text: 'It failed.' },
      ],
      { readTextFile: true, writeTextFile: true },
    );
    agent!.buffers.set(a, 'a = 1\nunsaved\n');
    agent!.saveWrites = false;
    agent!.refuseWrite = (path) => path === b;
    expect(await prompt(sessionId, 'patch them')).toEqual({ stopReason: 'end_turn' });
    expect(toolResultsSent(fake!, 2)).toEqual([
      `failed to apply patch: writing ${b} failed: Invalid params: b.txt is read-only in the editor. The files already written were put back as they were: no file was changed.`,
    ]);
    expect(agent!.writes.map((w) => [w.path, w.content])).toEqual([
      [a, 'a = 2\nunsaved\n'],
      [b, 'b = 2\n'],
      [a, 'a = 1\nunsaved\n'],
    ]);
    expect(agent!.buffers.get(a)).toBe('a = 1\nunsaved\n');
    expect(readFileSync(old, 'utf8')).toBe('gone\n');
  });

  it('an editor that reads but does not take writes: the view shows the buffer, a change over its unsaved text is refused', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-acp-readonly-'));
    const file = join(dir, 'a.txt');
    writeFileSync(file, 'alpha\n');
    const sessionId = await start(
      dir,
      [
        { toolCalls: [{ name: 'view', input: { file_path: 'a.txt' } }] },
        { toolCalls: [{ name: 'edit', input: { file_path: 'a.txt', old_string: 'alpha', new_string: 'ALPHA' } }] },
        { text: 'Please save a.txt first.' },
      ],
      { readTextFile: true, writeTextFile: false },
    );
    agent!.buffers.set(file, 'alpha\nunsaved\n');
    expect(await prompt(sessionId, 'capitalise alpha')).toEqual({ stopReason: 'end_turn' });
    expect(toolResultsSent(fake!, 1)).toEqual(['<file>\n     1|alpha\n     2|unsaved\n</file>\n']);
    expect(toolResultsSent(fake!, 2)).toEqual([
      `${file} has unsaved changes in the editor, and the editor does not take writes from the agent. Ask the person to save or revert them, then read the file again with view before changing it.`,
    ]);
    expect(agent!.writes).toEqual([]);
    expect(readFileSync(file, 'utf8')).toBe('alpha\n');
  });
});
