/**
 * Where a file tool's path really leads: a symbolic link inside the
 * project that dangles to a place outside it is an outside write (it asks, whatever the rules), and
 * `~/x` is the home folder, not `./~/x`. The tools' requests go to a real PermissionService.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { projectPathCheck } from '../../src/permission/policy.js';
import { resolveAllLinks } from '../../src/permission/real-path.js';
import { permissionRules } from '../../src/permission/rules.js';
import { PermissionService } from '../../src/permission/service.js';
import type { PermissionAskInput, PermissionSubject } from '../../src/permission/types.js';
import { expandHome, resolveToolPath } from '../../src/tools/write-guard.js';
import { writeTool } from '../../src/tools/write.js';
import { editTool } from '../../src/tools/edit.js';
import { viewTool } from '../../src/tools/view.js';
import { lsTool } from '../../src/tools/ls.js';
import { globTool } from '../../src/tools/glob.js';
import { grepTool } from '../../src/tools/grep.js';
import { runTool, toolContext } from '../support/tool-context.js';

let root: string;
let project: string;
let outside: string;
let home: string;
const savedHome = process.env.HOME;

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'opencode-paths-')));
  project = join(root, 'project');
  outside = join(root, 'outside');
  home = join(root, 'home');
  for (const d of [project, outside, home]) mkdirSync(d);
  process.env.HOME = home;
});
afterEach(() => {
  process.env.HOME = savedHome;
  rmSync(root, { recursive: true, force: true });
});

/** A context whose permission requests go to a real service with `rules`; every question is recorded and denied. */
function askingContext(rules: Record<string, unknown> = {}) {
  const service = new PermissionService(project, { rules: permissionRules(rules as never) });
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
  return { ctx, asked };
}

describe('resolveAllLinks', () => {
  it.each([
    [
      'a dangling absolute link',
      (p: string, o: string) => symlinkSync(join(o, 'new.txt'), join(p, 'L')),
      'L',
      (o: string) => join(o, 'new.txt'),
    ],
    [
      'a dangling relative link',
      (p: string) => symlinkSync('../outside/new.txt', join(p, 'L')),
      'L',
      (o: string) => join(o, 'new.txt'),
    ],
    [
      'a chain: link → link → missing file outside',
      (p: string, o: string) => {
        symlinkSync(join(o, 'hop'), join(p, 'L'));
        symlinkSync('final.txt', join(o, 'hop'));
      },
      'L',
      (o: string) => join(o, 'final.txt'),
    ],
    [
      'a link to a folder, then a missing file in it',
      (p: string, o: string) => symlinkSync(o, join(p, 'D')),
      'D/sub/new.txt',
      (o: string) => join(o, 'sub', 'new.txt'),
    ],
  ])('%s leads outside', (_name, make, rel, expected) => {
    make(project, outside);
    expect(resolveAllLinks(join(project, rel))).toBe(expected(outside));
    expect(projectPathCheck(project)(join(project, rel))).toBe(false);
  });

  it('a dangling link to a missing file inside the project stays inside', () => {
    symlinkSync('src/new.ts', join(project, 'L'));
    expect(resolveAllLinks(join(project, 'L'))).toBe(join(project, 'src', 'new.ts'));
    expect(projectPathCheck(project)(join(project, 'L'))).toBe(true);
  });

  it('a link loop is undefined and counts as outside', () => {
    symlinkSync('B', join(project, 'A'));
    symlinkSync('A', join(project, 'B'));
    expect(resolveAllLinks(join(project, 'A'))).toBeUndefined();
    expect(projectPathCheck(project)(join(project, 'A'))).toBe(false);
  });
});

describe('write through a dangling link inside the project', () => {
  it('asks (outside the project) even under an allow-all write rule, and writes nothing when denied', async () => {
    symlinkSync(join(outside, 'planted.txt'), join(project, 'notes.txt'));
    const { ctx, asked } = askingContext({ write: 'allow' });
    const result = await runTool(writeTool, { file_path: 'notes.txt', content: 'x\n' }, ctx);
    expect(asked).toEqual([[`outside the project: ${join(project, 'notes.txt')}`]]);
    expect(result.isError).toBe(true);
    expect(existsSync(join(outside, 'planted.txt'))).toBe(false);
  });
});

describe('~ in file tool paths', () => {
  it.each([
    ['~', () => home],
    ['~/x', () => join(home, 'x')],
    ['~/a/../b', () => join(home, 'b')],
    ['~user/x', () => join(project, '~user', 'x')],
    ['./~/x', () => join(project, '~', 'x')],
    ['a~/x', () => join(project, 'a~', 'x')],
  ])('%s resolves to the expected path', (path, expected) => {
    expect(resolveToolPath({ cwd: project }, path)).toBe(expected());
  });

  it('expandHome uses the given home', () => {
    expect(expandHome('~/.bashrc', '/home/pat')).toBe('/home/pat/.bashrc');
  });

  it('write of ~/x asks as a write outside the project and creates no ./~ folder', async () => {
    const { ctx, asked } = askingContext({ write: 'allow' });
    const result = await runTool(writeTool, { file_path: '~/x', content: 'x\n' }, ctx);
    expect(asked).toEqual([[`outside the project: ${join(home, 'x')}`]]);
    expect(result.isError).toBe(true);
    expect(existsSync(join(project, '~'))).toBe(false);
    expect(existsSync(join(home, 'x'))).toBe(false);
  });

  it('write of ~/x writes $HOME/x once allowed', async () => {
    const ctx = toolContext(project);
    const result = await runTool(writeTool, { file_path: '~/x', content: 'hello\n' }, ctx);
    expect(result.isError).toBe(false);
    expect(readFileSync(join(home, 'x'), 'utf8')).toBe('hello\n');
    expect(existsSync(join(project, '~'))).toBe(false);
  });

  it('view and edit read ~/x from the home folder', async () => {
    const ctx = toolContext(project);
    await runTool(writeTool, { file_path: '~/x', content: 'one\n' }, ctx);
    const viewed = await runTool(viewTool, { file_path: '~/x' }, ctx);
    expect(viewed.output).toContain('one');
    const edited = await runTool(editTool, { file_path: '~/x', old_string: 'one', new_string: 'two' }, ctx);
    expect(edited.isError).toBe(false);
    expect(readFileSync(join(home, 'x'), 'utf8')).toBe('two\n');
  });
});

describe('~ in the search and listing tools', () => {
  it('ls, glob and grep of ~/notes look in the home folder', async () => {
    mkdirSync(join(home, 'notes'));
    writeFileSync(join(home, 'notes', 'todo.md'), 'buy milk\n');
    const ctx = toolContext(project);
    expect((await runTool(lsTool, { path: '~/notes' }, ctx)).output).toContain('todo.md');
    expect((await runTool(globTool, { pattern: '*.md', path: '~/notes' }, ctx)).output).toBe(
      join(home, 'notes', 'todo.md'),
    );
    expect((await runTool(grepTool, { pattern: 'milk', path: '~/notes' }, ctx)).output).toContain(
      join(home, 'notes', 'todo.md'),
    );
  });
});
