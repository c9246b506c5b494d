/**
 * The project's protected places (the files that decide what runs) against the ways around their
 * read-only mounts, tried for real with bubblewrap in a temp project with its own HOME: renaming a
 * protected folder's parent, git's other config places (commondir, submodules' git directories),
 * hook runners' configs, a dangling link at a protected name, the clean-up reaching through a linked
 * `.git`, and a program started with the network on. Each harm is checked not to happen with the
 * sandbox on and, where it makes sense, to happen with `"sandbox": "off"` (the control).
 */
import { execFileSync, spawnSync } from 'node:child_process';
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
import { afterEach, describe, expect, it } from 'vitest';
import { detectSandbox } from '../../src/sandbox/detect.js';
import { createSandbox, sandboxSettings, type SandboxMode } from '../../src/sandbox/index.js';
import { configuredHooksPaths, hooksPathValues } from '../../src/sandbox/policy.js';
import { sandboxProcess } from '../../src/sandbox/process.js';
import { createShell } from '../../src/tools/shell.js';

const support = await detectSandbox();
const CAN_RUN = support.backend === 'bubblewrap';
const SKIPPED = CAN_RUN ? '' : ` (skipped: the sandbox cannot start here: ${support.reason})`;

const cleanup: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0)) await step();
});

interface World {
  root: string;
  project: string;
  home: string;
  outside: string;
}

/** git without the person's config, so that only the project's decides what runs */
const GIT_ENV = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@t',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@t',
};

function makeWorld(options: { git?: boolean } = {}): World {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'opencode-sandbox-protected-')));
  cleanup.push(() => rmSync(root, { recursive: true, force: true }));
  const world = { root, project: join(root, 'project'), home: join(root, 'home'), outside: join(root, 'outside') };
  for (const dir of [world.project, world.home, world.outside]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(world.project, 'a.txt'), 'a\n');
  if (options.git !== false) git(world, 'init', '-q');
  return world;
}

function git(world: World, ...args: string[]): string {
  return execFileSync('git', args, { cwd: world.project, env: { ...GIT_ENV, HOME: world.home }, encoding: 'utf8' });
}

/** Runs `command` as a command allowed by a rule (level strict), as the bash tool does. */
async function run(world: World, mode: SandboxMode, command: string) {
  const sandbox = createSandbox({ settings: sandboxSettings(mode), projectDir: world.project, home: world.home });
  const shell = createShell({ cwd: world.project, sandbox, env: { HOME: world.home, ...gitIdentity() } });
  cleanup.push(async () => {
    shell.close();
    await sandbox.close();
  });
  return shell.exec(command, { timeoutMs: 30_000, sandbox: 'strict' });
}

function gitIdentity(): Record<string, string> {
  return {
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 't',
    GIT_AUTHOR_EMAIL: 't@t',
    GIT_COMMITTER_NAME: 't',
    GIT_COMMITTER_EMAIL: 't@t',
  };
}

const present = (path: string) => {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
};

describe('core.hooksPath in a git config', () => {
  it('is read on the section line, quoted, with a comment, and not from a subsection', () => {
    expect(hooksPathValues('[core] hooksPath = .githooks\n')).toEqual(['.githooks']);
    expect(hooksPathValues('[CORE]\n\tHOOKSPATH = "tools/my hooks" ; a comment\n')).toEqual(['tools/my hooks']);
    expect(
      hooksPathValues('[core]\n\thooksPath = hooks # why\n[core "x"]\n\thooksPath = no\n[remote "o"] hooksPath = no\n'),
    ).toEqual(['hooks']);
  });

  it("is taken from the person's git config too, a relative one from the project, and ~/ from the home directory", () => {
    const w = makeWorld();
    writeFileSync(join(w.home, '.gitconfig'), '[core]\n\thooksPath = .hooks\n');
    mkdirSync(join(w.home, '.config', 'git'), { recursive: true });
    writeFileSync(join(w.home, '.config', 'git', 'config'), '[core] hooksPath = ~/hooks\n');
    writeFileSync(join(w.project, '.git', 'config.worktree'), '[core]\n\thooksPath = wt-hooks\n');
    expect(configuredHooksPaths(w.project, w.home)).toEqual([
      join(w.project, 'wt-hooks'),
      join(w.project, '.hooks'),
      join(w.home, 'hooks'),
    ]);
  });
});

describe.skipIf(!CAN_RUN)(`the protected places of a project${SKIPPED}`, () => {
  const marker = (w: World) => join(w.outside, 'ran');
  const fsmonitor = (w: World) => `echo ran >> ${marker(w)}; false`;

  for (const mode of ['auto', 'off'] as const) {
    const sandboxed = mode === 'auto';
    const title = sandboxed ? 'keeps' : 'does not keep (the control)';

    it(`${title} .git in place: renaming it and planting a copy with a hook and core.fsmonitor`, async () => {
      const w = makeWorld();
      const result = await run(
        w,
        mode,
        `mv .git .gitold; cp -a .gitold .git; printf '#!/bin/sh\\necho hook\\n' > .git/hooks/pre-commit; git config core.fsmonitor "${fsmonitor(w)}"; true`,
      );
      expect(result.exitCode).toBe(0);
      git(w, 'status', '--short');
      expect(existsSync(join(w.project, '.git', 'hooks', 'pre-commit'))).toBe(!sandboxed);
      expect(existsSync(marker(w))).toBe(!sandboxed);
      expect(existsSync(join(w.project, '.gitold'))).toBe(!sandboxed);
    });

    it(`${title} node_modules in place: renaming it and planting node_modules/.bin/tsc`, async () => {
      const w = makeWorld();
      mkdirSync(join(w.project, 'node_modules', '.bin'), { recursive: true });
      await run(
        w,
        mode,
        "mv node_modules nm_old; mkdir -p node_modules/.bin; printf '#!/bin/sh\\necho planted\\n' > node_modules/.bin/tsc; true",
      );
      expect(existsSync(join(w.project, 'node_modules', '.bin', 'tsc'))).toBe(!sandboxed);
    });

    it(`${title} git from another config through .git/commondir`, async () => {
      const w = makeWorld();
      await run(
        w,
        mode,
        `cp -a .git/. evilc/ && git config -f evilc/config core.fsmonitor "${fsmonitor(w)}" && echo ../evilc > .git/commondir; true`,
      );
      git(w, 'status', '--short');
      expect(existsSync(marker(w))).toBe(!sandboxed);
      expect(existsSync(join(w.project, '.git', 'commondir'))).toBe(!sandboxed);
    });

    it(`${title} a submodule's git config (.git/modules) from running its core.fsmonitor`, async () => {
      const w = makeWorld();
      const sub = join(w.root, 'subrepo');
      mkdirSync(sub);
      execFileSync('git', ['init', '-q'], { cwd: sub, env: GIT_ENV });
      writeFileSync(join(sub, 'f'), 'f\n');
      execFileSync('git', ['add', 'f'], { cwd: sub, env: GIT_ENV });
      execFileSync('git', ['commit', '-qm', 'f'], { cwd: sub, env: GIT_ENV });
      git(w, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', sub, 'sub');
      await run(w, mode, `git config -f .git/modules/sub/config core.fsmonitor "${fsmonitor(w)}"; true`);
      git(w, 'status', '--short');
      expect(existsSync(marker(w))).toBe(!sandboxed);
    });

    it(`${title} a dangling link made at a missing .opencode.json`, async () => {
      const w = makeWorld();
      await run(w, mode, `${process.execPath} -e "require('fs').symlinkSync('cfg.json', '.opencode.json')"`);
      expect(present(join(w.project, '.opencode.json'))).toBe(!sandboxed);
    });

    it(`${title} a protected name that is a link: replacing the link with a file of the command's`, async () => {
      const w = makeWorld();
      mkdirSync(join(w.project, 'config'));
      writeFileSync(join(w.project, 'config', 'opencode.json'), '{}\n');
      symlinkSync('config/opencode.json', join(w.project, '.opencode.json'));
      await run(w, mode, `rm .opencode.json && echo '{"sandbox":"off"}' > .opencode.json`);
      expect(readFileSync(join(w.project, '.opencode.json'), 'utf8')).toBe(sandboxed ? '{}\n' : '{"sandbox":"off"}\n');
      expect(lstatSync(join(w.project, '.opencode.json')).isSymbolicLink()).toBe(sandboxed);
    });

    it(`${title} node_modules/.bin when node_modules is a link: replacing the link with a folder holding a planted tsc`, async () => {
      const w = makeWorld();
      mkdirSync(join(w.outside, 'nm', '.bin'), { recursive: true });
      symlinkSync(join(w.outside, 'nm'), join(w.project, 'node_modules'));
      const result = await run(
        w,
        mode,
        "rm node_modules && mkdir -p node_modules/.bin && printf '#!/bin/sh\\necho planted\\n' > node_modules/.bin/tsc",
      );
      expect(result.exitCode).toBe(0);
      expect(existsSync(join(w.project, 'node_modules', '.bin', 'tsc'))).toBe(!sandboxed);
      expect(lstatSync(join(w.project, 'node_modules')).isSymbolicLink()).toBe(sandboxed);
    });

    it(`${title} a .git that is a link: replacing it with a copy whose config runs core.fsmonitor`, async () => {
      const w = makeWorld({ git: false });
      execFileSync('git', ['init', '-q', '--separate-git-dir', join(w.project, 'repo.git'), w.project], {
        env: GIT_ENV,
      });
      rmSync(join(w.project, '.git'));
      symlinkSync(join(w.project, 'repo.git'), join(w.project, '.git')); // absolute: bwrap must not follow it
      const result = await run(
        w,
        mode,
        `rm .git && cp -a repo.git .git && git config -f .git/config core.fsmonitor "${fsmonitor(w)}"`,
      );
      expect(result.exitCode).toBe(0);
      git(w, 'status', '--short');
      expect(existsSync(marker(w))).toBe(!sandboxed);
    });

    it(`${title} out a hook runner's config (.pre-commit-config.yaml, lefthook.yml) and a core.hooksPath folder`, async () => {
      const w = makeWorld();
      writeFileSync(
        join(w.project, '.git', 'config'),
        `${readFileSync(join(w.project, '.git', 'config'), 'utf8')}[core] hooksPath = .githooks\n`,
      );
      mkdirSync(join(w.project, '.githooks'));
      await run(
        w,
        mode,
        "echo 'repos: []' > .pre-commit-config.yaml; echo 'pre-commit: {}' > lefthook.yml; echo x > .githooks/pre-commit; true",
      );
      expect(existsSync(join(w.project, '.pre-commit-config.yaml'))).toBe(!sandboxed);
      expect(existsSync(join(w.project, 'lefthook.yml'))).toBe(!sandboxed);
      expect(existsSync(join(w.project, '.githooks', 'pre-commit'))).toBe(!sandboxed);
    });
  }

  it('removes nothing outside the project through a .git linked to another repository, and removes the link', async () => {
    const w = makeWorld({ git: false });
    const victim = join(w.outside, 'victim');
    mkdirSync(victim);
    execFileSync('git', ['init', '-q'], { cwd: victim, env: GIT_ENV });
    const before = readFileSync(join(victim, '.git', 'config'), 'utf8');
    const result = await run(w, 'auto', `ln -s ${victim}/.git .git`);
    expect(readFileSync(join(victim, '.git', 'config'), 'utf8')).toBe(before);
    expect(existsSync(join(victim, '.git', 'hooks'))).toBe(true);
    expect(existsSync(join(victim, '.git', 'info'))).toBe(true);
    expect(present(join(w.project, '.git'))).toBe(false);
    expect(result.stderr).toContain(`(the sandbox removed ${join(w.project, '.git')}, which the command created`);
  });

  it('still lets a command commit and read the status', async () => {
    const w = makeWorld();
    const result = await run(
      w,
      'auto',
      'git add a.txt && git commit -qm first && git status --short && git log --format=%s',
    );
    expect(result).toMatchObject({ exitCode: 0, stdout: 'first\n', sandboxed: true });
  });

  it('still lets a command you approved run npm install in a project whose node_modules exists (a mount point now)', async () => {
    const w = makeWorld();
    mkdirSync(join(w.project, 'dep'));
    writeFileSync(
      join(w.project, 'package.json'),
      '{"name":"p","version":"1.0.0","dependencies":{"dep":"file:./dep"}}\n',
    );
    writeFileSync(
      join(w.project, 'dep', 'package.json'),
      '{"name":"dep","version":"1.0.0","bin":{"depbin":"cli.js"}}\n',
    );
    writeFileSync(join(w.project, 'dep', 'cli.js'), '#!/usr/bin/env node\n');
    mkdirSync(join(w.project, 'node_modules', 'old'), { recursive: true });
    const sandbox = createSandbox({ settings: sandboxSettings('auto'), projectDir: w.project, home: w.home });
    const shell = createShell({ cwd: w.project, sandbox, env: { HOME: w.home } });
    cleanup.push(async () => {
      shell.close();
      await sandbox.close();
    });
    const result = await shell.exec(
      'npm install --offline --no-audit --no-fund --loglevel=error >/dev/null && ls node_modules node_modules/.bin',
      {
        timeoutMs: 60_000,
        sandbox: 'network',
      },
    );
    expect(result).toMatchObject({
      exitCode: 0,
      stdout: 'node_modules:\ndep\n\nnode_modules/.bin:\ndepbin\n',
      sandboxed: true,
    });
  });

  it('removes the protected files a program started with the network on creates', async () => {
    const w = makeWorld();
    const sandbox = createSandbox({ settings: sandboxSettings('auto'), projectDir: w.project, home: w.home });
    cleanup.push(() => sandbox.close());
    const wrapped = await sandboxProcess(sandbox, ['sh', '-c', 'echo "echo ran" > .envrc'], {
      settings: { network: true },
    });
    const done = spawnSync(wrapped.file, wrapped.args, {
      cwd: w.project,
      env: { ...process.env, ...wrapped.env },
      encoding: 'utf8',
    });
    expect(done.status).toBe(0);
    expect(wrapped.release()).toEqual([join(w.project, '.envrc')]);
    expect(existsSync(join(w.project, '.envrc'))).toBe(false);
  });
});
