import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fillPlaceholders, findPlaceholders, loadCustomCommands, userCommandDirs } from '../../src/custom/commands.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(path.join(os.tmpdir(), 'opencode-commands-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

function write(file: string, text: string) {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

describe('loadCustomCommands', () => {
  it('finds every .md recursively under the user and project folders, with ids, titles and sources', async () => {
    const xdg = path.join(home, '.config', 'opencode');
    const dot = path.join(home, '.opencode');
    const project = path.join(home, 'project', '.opencode');
    write(path.join(xdg, 'commands', 'git', 'commit.md'), 'Commit the staged changes for $ISSUE');
    write(path.join(xdg, 'commands', 'git', 'deep', 'rebase.md'), 'Rebase onto $BRANCH, then $BRANCH again');
    write(path.join(xdg, 'commands', 'notes.txt'), 'not a command');
    write(path.join(dot, 'commands', 'review.md'), 'Review the diff');
    write(path.join(dot, 'commands', 'git', 'commit.md'), 'shadowed by the XDG one');
    write(path.join(project, 'commands', 'test.md'), 'Run the tests in $HOME and $PACKAGE');

    const commands = await loadCustomCommands({ configDirs: [xdg, dot], dataDir: project, home, env: { HOME: home } });
    expect(commands).toEqual([
      {
        id: 'user:git:commit',
        title: 'user:git:commit',
        description: 'from ~/.config/opencode/commands/git/commit.md',
        content: 'Commit the staged changes for $ISSUE',
        placeholders: ['ISSUE'],
      },
      {
        id: 'user:git:deep:rebase',
        title: 'user:git:deep:rebase',
        description: 'from ~/.config/opencode/commands/git/deep/rebase.md',
        content: 'Rebase onto $BRANCH, then $BRANCH again',
        placeholders: ['BRANCH'],
      },
      {
        id: 'user:review',
        title: 'user:review',
        description: 'from ~/.opencode/commands/review.md',
        content: 'Review the diff',
        placeholders: [],
      },
      {
        id: 'project:test',
        title: 'project:test',
        description: 'from ~/project/.opencode/commands/test.md',
        content: 'Run the tests in $HOME and $PACKAGE',
        placeholders: ['PACKAGE'],
      },
    ]);
  });

  it('does not create missing folders', async () => {
    const xdg = path.join(home, '.config', 'opencode');
    const project = path.join(home, 'project', '.opencode');
    expect(await loadCustomCommands({ configDirs: [xdg], dataDir: project, home })).toEqual([]);
    expect(existsSync(xdg)).toBe(false);
    expect(existsSync(project)).toBe(false);
  });

  it('follows a symlinked folder', async () => {
    write(path.join(home, 'shared', 'deploy.md'), 'Deploy');
    mkdirSync(path.join(home, 'cfg', 'commands'), { recursive: true });
    symlinkSync(path.join(home, 'shared'), path.join(home, 'cfg', 'commands', 'team'));
    const commands = await loadCustomCommands({
      configDirs: [path.join(home, 'cfg')],
      dataDir: path.join(home, 'none'),
      home,
    });
    expect(commands.map((c) => c.id)).toEqual(['user:team:deploy']);
  });
});

describe('userCommandDirs', () => {
  it('is $XDG_CONFIG_HOME/opencode (default ~/.config/opencode), then ~/.opencode', () => {
    expect(userCommandDirs({ XDG_CONFIG_HOME: '/x' }, '/h')).toEqual(['/x/opencode', '/h/.opencode']);
    expect(userCommandDirs({}, '/h')).toEqual(['/h/.config/opencode', '/h/.opencode']);
  });
});

describe('placeholders', () => {
  it('are the distinct $NAMEs in order of first use', () => {
    expect(findPlaceholders('Fix $ISSUE on $BRANCH_2; see $ISSUE; $lower, $1X, $_X stay', {})).toEqual([
      'ISSUE',
      'BRANCH_2',
    ]);
  });

  it('leave out common shell variables the environment sets, but not unset ones or other set ones', () => {
    const env = { HOME: '/h', PATH: '/bin', USER: 'u', ISSUE: '12' };
    expect(findPlaceholders('cd $HOME; $PATH; $USER; $SHELL; $ISSUE', env)).toEqual(['SHELL', 'ISSUE']);
  });

  it('fill whole names only, literally', () => {
    expect(fillPlaceholders('$FOO and $FOOBAR and $FOO.', { FOO: 'x', FOOBAR: 'y' })).toBe('x and y and x.');
    expect(fillPlaceholders('$FOO and $FOOBAR', { FOO: 'x' })).toBe('x and $FOOBAR');
    expect(fillPlaceholders('$A', { A: '$& $B' })).toBe('$& $B');
    expect(fillPlaceholders('$HOME stays', { A: '1' })).toBe('$HOME stays');
  });
});
