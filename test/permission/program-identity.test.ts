/**
 * A banned program is recognised by what it is: a link to curl or a renamed copy of
 * it is refused like curl, through the real bash-tool analysis, on real files. The "curl" here is a
 * small executable of our own on a PATH of our own, so the test does not depend on what is installed.
 */
import { chmodSync, copyFileSync, linkSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { analyseForPermission } from '../../src/permission/command-subject.js';
import { evaluatePermission } from '../../src/permission/policy.js';
import { bannedByIdentity } from '../../src/permission/program-identity.js';
import { permissionRules } from '../../src/permission/rules.js';
import { tempDir } from '../support/recording-context.js';

let tmp: ReturnType<typeof tempDir>;
let project: string;
let bin: string;
let pathEnv: string;

const CURL = '#!/bin/sh\n# a stand-in for curl: its content is what identifies it\necho fetched "$@"\n';

beforeEach(() => {
  tmp = tempDir();
  project = join(tmp.dir, 'project');
  bin = join(tmp.dir, 'bin');
  mkdirSync(join(project, 'tools'), { recursive: true });
  mkdirSync(bin);
  writeFileSync(join(bin, 'curl'), CURL);
  chmodSync(join(bin, 'curl'), 0o755);
  pathEnv = bin;
});
afterEach(() => tmp.remove());

async function banned(command: string): Promise<string | undefined> {
  const { analysis } = await analyseForPermission(command, { cwd: project, home: tmp.dir, pathEnv });
  return analysis.banned?.name;
}

function executable(path: string, content: string): void {
  writeFileSync(path, content);
  chmodSync(path, 0o755);
}

describe('a program is judged by what it is, not by its name', () => {
  it('a renamed copy of curl in the project is curl', async () => {
    copyFileSync(join(bin, 'curl'), join(project, 'tools', 'fetcher'));
    chmodSync(join(project, 'tools', 'fetcher'), 0o755);
    expect(await banned('./tools/fetcher https://example.com')).toBe('curl');
    expect(await banned('cd tools && ./fetcher x')).toBe('curl');
    expect(await banned('git status && bash -c "tools/fetcher x"')).toBe('curl');
  });

  it('a renamed copy found on PATH is curl', async () => {
    const other = join(tmp.dir, 'other');
    mkdirSync(other);
    executable(join(other, 'kurl'), CURL);
    pathEnv = `${bin}:${other}`;
    expect(await banned('kurl x')).toBe('curl');
  });

  it('a symbolic link, or a chain of them, to curl is curl', async () => {
    symlinkSync(join(bin, 'curl'), join(project, 'k'));
    symlinkSync(join(project, 'k'), join(project, 'k2'));
    expect(await banned('./k x')).toBe('curl');
    expect(await banned('./k2 x')).toBe('curl');
  });

  it('a hard link to curl is curl', async () => {
    linkSync(join(bin, 'curl'), join(project, 'h'));
    expect(await banned('./h x')).toBe('curl');
  });

  it('the refusal says which program it is', async () => {
    symlinkSync(join(bin, 'curl'), join(project, 'k'));
    const { analysis } = await analyseForPermission('./k x', { cwd: project, home: tmp.dir, pathEnv });
    expect(analysis.banned).toEqual({
      name: 'curl',
      reason: './k is curl: network access; use the fetch tool to read a web page',
    });
  });

  it('a program of the same size with other content, a missing program and a dangling link are not banned', async () => {
    executable(join(project, 'same-size'), CURL.replace('stand-in', 'stand-ex'));
    symlinkSync(join(project, 'nowhere'), join(project, 'dangling'));
    expect(await banned('./same-size x')).toBeUndefined();
    expect(await banned('./missing x')).toBeUndefined();
    expect(await banned('./dangling x')).toBeUndefined();
    expect(await banned('ls -la')).toBeUndefined();
  });

  it('a copy changed after it was first seen is judged again (the cache is keyed by size and modification time)', async () => {
    const copy = join(project, 'tool');
    executable(copy, CURL.replace('stand-in', 'stand-ex'));
    expect(bannedByIdentity({ name: 'tool', invokedAs: './tool' }, { cwd: project, pathEnv })).toBeUndefined();
    executable(copy, CURL);
    expect(bannedByIdentity({ name: 'tool', invokedAs: './tool' }, { cwd: project, pathEnv })?.name).toBe('curl');
  });
});

describe('a link is judged by rules under the name of what it runs', () => {
  it('./del x, where del links to rm, meets "rm *": "deny" under "*": "allow"', async () => {
    executable(join(bin, 'rm'), '#!/bin/sh\necho removed "$@"\n');
    symlinkSync(join(bin, 'rm'), join(project, 'del'));
    const decide = async (command: string) => {
      const { subject } = await analyseForPermission(command, { cwd: project, home: tmp.dir, pathEnv });
      return evaluatePermission('bash', subject, {
        rules: permissionRules({ bash: { '*': 'allow', 'rm *': 'deny' } }),
        grants: [],
        cwd: project,
      }).action;
    };
    expect(await decide('./del x')).toBe('deny');
    expect(await decide('ls && ./del -rf x')).toBe('deny');
    expect(await decide('ls -la')).toBe('allow');
  });
});
