/**
 * More link shapes for the file tools, found by trying to break the fix
 * of file-tool-paths.test.ts: whatever way a path is written, the place the permission check judges
 * is the place the tool writes, and a real target outside the project asks under allow-all rules.
 *
 * The bug this caught: the check followed links the kernel's way (`L → D/../../x` with `D` a link goes
 * up from where `D` leads) while the write followed them by their text, so a link the check judged
 * inside wrote outside the project without asking.
 */
import {
  existsSync,
  lstatSync,
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
import { permissionRules } from '../../src/permission/rules.js';
import { PermissionService } from '../../src/permission/service.js';
import type { PermissionAskInput, PermissionSubject } from '../../src/permission/types.js';
import { resolveWriteTarget } from '../../src/tools/file-io.js';
import { resolveToolPath } from '../../src/tools/write-guard.js';
import type { Tool } from '../../src/tools/tool.js';
import { writeTool } from '../../src/tools/write.js';
import { editTool } from '../../src/tools/edit.js';
import { patchTool } from '../../src/tools/patch.js';
import { viewTool } from '../../src/tools/view.js';
import { runTool, toolContext } from '../support/tool-context.js';

let root: string;
let project: string;
let outside: string;
let home: string;
const savedHome = process.env.HOME;

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'opencode-link-targets-')));
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

/** Rules allowing every file tool; questions are recorded (their reasons) and denied. */
function askingContext() {
  const service = new PermissionService(project, {
    rules: permissionRules({ write: 'allow', edit: 'allow', patch: 'allow' } as never),
  });
  const asked: string[][] = [];
  service.onRequest((request) => {
    asked.push(request.reasons ?? []);
    service.respond(request.id, 'deny');
  });
  const base = toolContext(project);
  const contextFor = (tool: Tool) => ({
    ...base,
    askPermission: (input: PermissionAskInput, subject?: PermissionSubject) =>
      service.request('s', tool.name, { ...input, subject }),
  });
  return { contextFor, asked };
}

/** Each row: links to make, the path the model gives, and where the bytes land (relative to root). */
const NEW_FILE_ROWS: Array<{ name: string; make: () => void; path: () => string; lands: string; asks: boolean }> = [
  {
    name: 'a chain of three links, the last dangling outside',
    make: () => {
      symlinkSync('hop1', join(project, 'L'));
      symlinkSync(join(outside, 'hop2'), join(project, 'hop1'));
      symlinkSync('../outside/final.txt', join(outside, 'hop2'));
    },
    path: () => 'L',
    lands: 'outside/final.txt',
    asks: true,
  },
  {
    name: 'a link to the parent folder, then a path through it',
    make: () => symlinkSync('..', join(project, 'up')),
    path: () => 'up/outside/new.txt',
    lands: 'outside/new.txt',
    asks: true,
  },
  {
    name: 'a relative link escaping with ../',
    make: () => symlinkSync('../../outside/new.txt', join(mkdirSync(join(project, 'src'), { recursive: true })!, 'L')),
    path: () => 'src/L',
    lands: 'outside/new.txt',
    asks: true,
  },
  {
    name: 'a link inside .opencode to a folder outside',
    make: () => {
      mkdirSync(join(project, '.opencode'));
      symlinkSync(outside, join(project, '.opencode', 'commands'));
    },
    path: () => '.opencode/commands/deploy.md',
    lands: 'outside/deploy.md',
    asks: true,
  },
  {
    name: 'a link whose text reads inside but goes up from an outside folder (L → D/../x, D → outside/a)',
    make: () => {
      mkdirSync(join(outside, 'a'));
      symlinkSync(join(outside, 'a'), join(project, 'D'));
      symlinkSync('D/../x.txt', join(project, 'L'));
    },
    path: () => 'L',
    lands: 'outside/x.txt',
    asks: true,
  },
  {
    name: 'a link whose text reads outside but the kernel keeps inside (L → D/../../x, D → project/a/b)',
    make: () => {
      mkdirSync(join(project, 'a', 'b'), { recursive: true });
      symlinkSync(join(project, 'a', 'b'), join(project, 'D'));
      symlinkSync('D/../../x.txt', join(project, 'L'));
    },
    path: () => 'L',
    lands: 'project/x.txt',
    asks: false,
  },
  {
    name: 'the same, where the text would land in an existing outside folder (L → D/../../outside/x)',
    make: () => {
      mkdirSync(join(project, 'a', 'b', 'outside'), { recursive: true });
      symlinkSync(join(project, 'a', 'b', 'outside'), join(project, 'D'));
      mkdirSync(join(project, 'a', 'outside'));
      symlinkSync('D/../../outside/x.txt', join(project, 'L'));
    },
    path: () => 'L',
    lands: 'project/a/outside/x.txt',
    asks: false,
  },
  { name: '~/x', make: () => {}, path: () => '~/x.txt', lands: 'home/x.txt', asks: true },
  {
    name: 'a path with //',
    make: () => symlinkSync(outside, join(project, 'O')),
    path: () => `${project}//O//new.txt`,
    lands: 'outside/new.txt',
    asks: true,
  },
  {
    name: './../ out of the project',
    make: () => {},
    path: () => './../outside/new.txt',
    lands: 'outside/new.txt',
    asks: true,
  },
  {
    name: 'a ./../ that comes back in',
    make: () => {},
    path: () => './../project/./new.txt',
    lands: 'project/new.txt',
    asks: false,
  },
  {
    name: 'a unicode link name to an outside folder',
    make: () => symlinkSync(outside, join(project, 'café ☕')),
    path: () => 'café ☕/new.txt',
    lands: 'outside/new.txt',
    asks: true,
  },
  {
    name: 'a unicode file name inside',
    make: () => {},
    path: () => 'naïve ü/日本.txt',
    lands: 'project/naïve ü/日本.txt',
    asks: false,
  },
];

describe('new files through links and odd path forms', () => {
  it.each(NEW_FILE_ROWS)('write: $name', async ({ make, path, lands, asks }) => {
    make();
    const { contextFor, asked } = askingContext();
    const result = await runTool(writeTool, { file_path: path(), content: 'x\n' }, contextFor(writeTool));
    expect(asked.length).toBe(asks ? 1 : 0);
    if (asks) {
      expect(asked[0]![0]).toMatch(/^outside the project: /);
      expect(result.isError).toBe(true);
      expect(existsSync(join(root, lands))).toBe(false);
    } else {
      expect(result.output).toContain('File successfully written');
      expect(readFileSync(join(root, lands), 'utf8')).toBe('x\n');
    }
  });

  it.each(NEW_FILE_ROWS)('patch (Add File): $name', async ({ make, path, lands, asks }) => {
    make();
    const { contextFor, asked } = askingContext();
    const added = path();
    const result = await runTool(
      patchTool,
      { patch_text: `*** Begin Patch\n*** Add File: ${added}\n+x\n*** End Patch` },
      contextFor(patchTool),
    );
    // a link at the named path itself (even dangling) is something there: Add refuses it before asking
    let linkThere = false;
    try {
      linkThere = lstatSync(resolveToolPath({ cwd: project }, added)).isSymbolicLink();
    } catch {
      // nothing at the path
    }
    if (linkThere) {
      expect(result).toMatchObject({
        isError: true,
        output: `file already exists and cannot be added: ${resolveToolPath({ cwd: project }, added)}`,
      });
      expect(asked).toEqual([]);
      expect(existsSync(join(root, lands))).toBe(false);
      return;
    }
    expect(asked.length).toBe(asks ? 1 : 0);
    expect(existsSync(join(root, lands))).toBe(!asks);
  });

  it.each(NEW_FILE_ROWS)('edit (create mode): $name', async ({ make, path, lands, asks }) => {
    make();
    const { contextFor, asked } = askingContext();
    const result = await runTool(
      editTool,
      { file_path: path(), old_string: '', new_string: 'x\n' },
      contextFor(editTool),
    );
    expect(asked.length).toBe(asks ? 1 : 0);
    expect(result.isError).toBe(asks);
    expect(existsSync(join(root, lands))).toBe(!asks);
  });

  it('resolveWriteTarget gives what the kernel opens (its text would go to root/x.txt)', () => {
    mkdirSync(join(project, 'a', 'b'), { recursive: true });
    symlinkSync(join(project, 'a', 'b'), join(project, 'D'));
    symlinkSync('D/../../x.txt', join(project, 'L'));
    expect(resolveWriteTarget(join(project, 'L'))).toBe(join(project, 'x.txt'));
  });
});

describe('existing files outside through links: edit and patch ask', () => {
  const shapes: Array<[string, () => string]> = [
    ['a link to the file', () => (symlinkSync(join(outside, 'f.txt'), join(project, 'f.txt')), 'f.txt')],
    ['a link to its folder', () => (symlinkSync(outside, join(project, 'o')), 'o/f.txt')],
    [
      'a two-link chain',
      () => (
        symlinkSync('m', join(project, 'f.txt')),
        symlinkSync(join(outside, 'f.txt'), join(project, 'm')),
        'f.txt'
      ),
    ],
    ['a link to the parent', () => (symlinkSync('..', join(project, 'up')), 'up/outside/f.txt')],
  ];

  it.each(shapes)('edit through %s', async (_name, make) => {
    writeFileSync(join(outside, 'f.txt'), 'one\n');
    const path = make();
    const { contextFor, asked } = askingContext();
    await runTool(viewTool, { file_path: path }, contextFor(viewTool));
    const result = await runTool(
      editTool,
      { file_path: path, old_string: 'one', new_string: 'two' },
      contextFor(editTool),
    );
    expect(asked).toEqual([[`outside the project: ${join(project, path)}`]]);
    expect(result.isError).toBe(true);
    expect(readFileSync(join(outside, 'f.txt'), 'utf8')).toBe('one\n');
  });

  it.each(shapes)('patch (Update and Delete) through %s', async (_name, make) => {
    writeFileSync(join(outside, 'f.txt'), 'one\n');
    const path = make();
    const { contextFor, asked } = askingContext();
    await runTool(viewTool, { file_path: path }, contextFor(viewTool));
    const update = await runTool(
      patchTool,
      { patch_text: `*** Begin Patch\n*** Update File: ${path}\n@@\n-one\n+two\n*** End Patch` },
      contextFor(patchTool),
    );
    expect(update.isError).toBe(true);
    const del = await runTool(
      patchTool,
      { patch_text: `*** Begin Patch\n*** Delete File: ${path}\n*** End Patch` },
      contextFor(patchTool),
    );
    expect(del.isError).toBe(true);
    expect(asked.length).toBe(2);
    for (const reasons of asked) expect(reasons.some((r) => r.startsWith('outside the project: '))).toBe(true);
    expect(readFileSync(join(outside, 'f.txt'), 'utf8')).toBe('one\n');
  });
});
