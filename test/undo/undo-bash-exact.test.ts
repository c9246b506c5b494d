/**
 * Undo of what `bash` changed, the cases git alone does not keep, through `bin/opencode -p`
 * with the fake provider scripting the bash call, a real SQLite file and real git, then
 * `opencode sessions undo ID` and `--redo`: permission bits other than the executable bit (`chmod
 * 600`, setuid, setgid, sticky) with the content unchanged; files over 4 MiB (kept as git blobs, not
 * in SQLite); symbolic links created, removed and retargeted, and a file replaced by one; names that
 * are not UTF-8. Each undo → redo → undo round trip ends with exact bytes, modes, link targets and
 * raw names; a chmod or a link changed since by someone else is left alone with the difference.
 */
import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanEnv, runCli } from '../support/cli.js';
import { queryProjectDb } from '../support/project-db.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const modeOf = (path: string | Buffer) => statSync(path).mode & 0o7777;
const sha1 = (bytes: Buffer) => createHash('sha1').update(bytes).digest('hex');

function project(): string {
  return mkdtempSync(join(tmpdir(), 'opencode-undo-exact-'));
}

/** Runs one turn, "tidy up", whose one tool call is bash running `command`. */
async function runTurn(dir: string, command: string): Promise<void> {
  fake = await startFakeProvider([{ toolCalls: [{ name: 'bash', input: { command } }] }, { text: 'Done.' }]);
  const run = await runCli(['-p', 'tidy up'], {
    cwd: dir,
    env: cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.anthropicBaseURL }),
  });
  expect(run.stderr).toBe('');
  expect(run).toMatchObject({ code: 0, stdout: 'Done.\n' });
  expect(bashMetadata(dir)?.untrackedChanges).toBeUndefined();
}

const query = queryProjectDb;

const sessionIdOf = (dir: string) => query<{ id: string }>(dir, 'SELECT id FROM sessions')[0]!.id;

function bashMetadata(dir: string): Record<string, unknown> | undefined {
  for (const row of query<{ parts: string }>(dir, "SELECT parts FROM messages WHERE role = 'tool' ORDER BY seq")) {
    for (const part of JSON.parse(row.parts)) if (part.name === 'bash') return part.metadata;
  }
  return undefined;
}

/** `opencode sessions undo ID [args]` in `dir`: exit code, stdout and stderr. */
async function undo(dir: string, ...args: string[]): Promise<[number | null, string, string]> {
  const run = await runCli(['sessions', 'undo', sessionIdOf(dir), ...args], { cwd: dir, env: cleanEnv() });
  return [run.code, run.stdout, run.stderr];
}

describe('undo of what bash changed, exactly', () => {
  it('puts back permission bits git does not keep (600, 640, setuid, setgid, sticky) with the content unchanged; redo sets them again', async () => {
    const dir = project();
    const files = { 'a.txt': 0o640, 'b.sh': 0o755, 'c.txt': 0o644, 'd.txt': 0o664, 'e.key': 0o600 };
    for (const [name, mode] of Object.entries(files)) {
      writeFileSync(join(dir, name), `${name}\r\n`);
      chmodSync(join(dir, name), mode);
    }
    await runTurn(dir, 'chmod 600 a.txt && chmod 4755 b.sh && chmod 2640 c.txt && chmod 1644 d.txt && chmod 644 e.key');
    const changed = { 'a.txt': 0o600, 'b.sh': 0o4755, 'c.txt': 0o2640, 'd.txt': 0o1644, 'e.key': 0o644 };
    const modes = () => Object.fromEntries(Object.keys(files).map((name) => [name, modeOf(join(dir, name))]));
    expect(modes()).toEqual(changed);
    const inodes = Object.keys(files).map((name) => statSync(join(dir, name)).ino);

    expect(await undo(dir)).toEqual([
      0,
      'Undid the turn "tidy up":\n  restored  a.txt\n  restored  b.sh\n  restored  c.txt\n  restored  d.txt\n  restored  e.key\n',
      '',
    ]);
    expect(modes()).toEqual(files);
    for (const name of Object.keys(files)) expect(readFileSync(join(dir, name), 'utf8')).toBe(`${name}\r\n`);
    // a mode change alone is a chmod, not a rewrite: the same files (hard links stay linked)
    expect(Object.keys(files).map((name) => statSync(join(dir, name)).ino)).toEqual(inodes);

    expect((await undo(dir, '--redo'))[0]).toBe(0);
    expect(modes()).toEqual(changed);
    expect((await undo(dir))[0]).toBe(0);
    expect(modes()).toEqual(files);
    for (const name of Object.keys(files)) expect(readFileSync(join(dir, name), 'utf8')).toBe(`${name}\r\n`);
  });

  it('leaves a file whose mode someone changed since alone, saying so, and undoes the rest', async () => {
    const dir = project();
    writeFileSync(join(dir, 'a.txt'), 'a\n');
    writeFileSync(join(dir, 'b.txt'), 'b\n');
    await runTurn(dir, 'chmod 600 a.txt b.txt');
    chmodSync(join(dir, 'a.txt'), 0o640);
    expect(await undo(dir)).toEqual([
      1,
      'Undid the turn "tidy up":\n  restored  b.txt\nLeft alone, changed since (your changes are kept):\n  a.txt: mode changed since (600 → 640)\n',
      '',
    ]);
    expect([modeOf(join(dir, 'a.txt')), modeOf(join(dir, 'b.txt'))]).toEqual([0o640, 0o644]);
  });

  it('puts back files over 4 MiB byte for byte from the snapshot repository, without copying them into SQLite', async () => {
    const dir = project();
    // 6 MiB that do not compress to nothing
    const big = Buffer.alloc(6 * 1024 * 1024);
    for (let i = 0; i < big.length; i += 32) createHash('sha256').update(String(i)).digest().copy(big, i);
    writeFileSync(join(dir, 'data.bin'), big);
    chmodSync(join(dir, 'data.bin'), 0o600);
    await runTurn(dir, "printf 'tail' >> data.bin && head -c 5000000 data.bin > copy.bin && rm -f nothing");
    const after = readFileSync(join(dir, 'data.bin'));
    expect(after.length).toBe(big.length + 4);
    // the database holds the blob ids, not the bytes
    const rows = query<{ path: string; before_kind: string | null; after_kind: string | null; stored: number }>(
      dir,
      'SELECT path, before_kind, after_kind, coalesce(length(before_bytes), 0) + coalesce(length(after_bytes), 0) AS stored FROM turn_changes ORDER BY path',
    );
    expect(rows.map((r) => [r.path.slice(dir.length + 1), r.before_kind, r.after_kind, r.stored < 100])).toEqual([
      ['copy.bin', null, 'blob', true],
      ['data.bin', 'blob', 'blob', true],
    ]);

    expect(await undo(dir)).toEqual([0, 'Undid the turn "tidy up":\n  removed   copy.bin\n  restored  data.bin\n', '']);
    expect(sha1(readFileSync(join(dir, 'data.bin')))).toBe(sha1(big));
    expect(modeOf(join(dir, 'data.bin'))).toBe(0o600);
    expect(existsSync(join(dir, 'copy.bin'))).toBe(false);

    expect((await undo(dir, '--redo'))[0]).toBe(0);
    expect(sha1(readFileSync(join(dir, 'data.bin')))).toBe(sha1(after));
    expect(sha1(readFileSync(join(dir, 'copy.bin')))).toBe(sha1(big.subarray(0, 5_000_000)));
    expect((await undo(dir))[0]).toBe(0);
    expect(sha1(readFileSync(join(dir, 'data.bin')))).toBe(sha1(big));
  });

  it('puts back symbolic links bash created, removed and retargeted, and a file it replaced by a link, never writing through them', async () => {
    const dir = project();
    writeFileSync(join(dir, 'target.txt'), 'target\n');
    writeFileSync(join(dir, 'plain.txt'), 'plain\r\n');
    chmodSync(join(dir, 'plain.txt'), 0o640);
    symlinkSync('target.txt', join(dir, 'old-link'));
    symlinkSync('target.txt', join(dir, 'moved-link'));
    await runTurn(
      dir,
      'ln -s target.txt new-link && rm old-link && ln -sfn missing.txt moved-link && rm plain.txt && ln -s target.txt plain.txt',
    );
    const links = () =>
      Object.fromEntries(
        ['new-link', 'old-link', 'moved-link', 'plain.txt'].map((name) => {
          const path = join(dir, name);
          if (!existsSync(path) && !isLink(path)) return [name, 'none'];
          return [
            name,
            isLink(path) ? `-> ${readlinkSync(path)}` : `${modeOf(path).toString(8)} ${readFileSync(path, 'latin1')}`,
          ];
        }),
      );
    const changed = {
      'new-link': '-> target.txt',
      'old-link': 'none',
      'moved-link': '-> missing.txt',
      'plain.txt': '-> target.txt',
    };
    const before = {
      'new-link': 'none',
      'old-link': '-> target.txt',
      'moved-link': '-> target.txt',
      'plain.txt': '640 plain\r\n',
    };
    expect(links()).toEqual(changed);

    expect(await undo(dir)).toEqual([
      0,
      'Undid the turn "tidy up":\n  restored  moved-link\n  removed   new-link\n  created   old-link\n  restored  plain.txt\n',
      '',
    ]);
    expect(links()).toEqual(before);
    // what the links lead to was never written
    expect(readFileSync(join(dir, 'target.txt'), 'utf8')).toBe('target\n');

    expect((await undo(dir, '--redo'))[0]).toBe(0);
    expect(links()).toEqual(changed);
    expect((await undo(dir))[0]).toBe(0);
    expect(links()).toEqual(before);
    expect(readFileSync(join(dir, 'target.txt'), 'utf8')).toBe('target\n');
  });

  it('puts back a folder bash replaced by a link, and a link it replaced by a folder', async () => {
    const dir = project();
    mkdirSync(join(dir, 'lib'));
    writeFileSync(join(dir, 'lib', 'a.txt'), 'a\n');
    writeFileSync(join(dir, 'lib', 'b.txt'), 'b\n');
    symlinkSync('lib', join(dir, 'cur'));
    await runTurn(dir, 'rm -r lib && ln -s elsewhere lib && rm cur && mkdir cur && printf x > cur/new.txt');
    const shape = () =>
      ['cur', 'lib'].map((name) => {
        const path = join(dir, name);
        return isLink(path) ? `${name} -> ${readlinkSync(path)}` : `${name}/ ${readdirSync(path).sort().join(' ')}`;
      });
    expect(shape()).toEqual(['cur/ new.txt', 'lib -> elsewhere']);

    expect(await undo(dir)).toEqual([
      0,
      'Undid the turn "tidy up":\n  created   cur\n  removed   cur/new.txt\n  removed   lib\n  created   lib/a.txt\n  created   lib/b.txt\n',
      '',
    ]);
    expect(shape()).toEqual(['cur -> lib', 'lib/ a.txt b.txt']);
    expect(readFileSync(join(dir, 'lib', 'a.txt'), 'utf8')).toBe('a\n');
    expect((await undo(dir, '--redo'))[0]).toBe(0);
    expect(shape()).toEqual(['cur/ new.txt', 'lib -> elsewhere']);
    expect((await undo(dir))[0]).toBe(0);
    expect(shape()).toEqual(['cur -> lib', 'lib/ a.txt b.txt']);
  });

  it('leaves a link someone retargeted since alone, with the difference; a file replaced since by a link out of the project is refused even with --force', async () => {
    const dir = project();
    const outside = join(mkdtempSync(join(tmpdir(), 'opencode-outside-')), 'secret.txt');
    writeFileSync(outside, 'secret\n');
    writeFileSync(join(dir, 'a.txt'), 'a\n');
    symlinkSync('a.txt', join(dir, 'link'));
    await runTurn(dir, 'ln -sfn b.txt link && printf changed > a.txt');
    rmSync(join(dir, 'link'));
    symlinkSync('c.txt', join(dir, 'link'));
    rmSync(join(dir, 'a.txt'));
    symlinkSync(outside, join(dir, 'a.txt'));
    const [code, stdout, stderr] = await undo(dir, '--force');
    expect([code, stderr]).toEqual([0, '']);
    expect(stdout).toBe(
      'Undid the turn "tidy up":\n  restored  link\n' +
        'Left alone, changed since (your changes are kept):\n' +
        `  a.txt: is a symbolic link leading outside the project (to ${outside}); undo does not write through it — put the file back by hand if that is intended\n` +
        '  link: is a symbolic link to c.txt now (was to b.txt)\n' +
        '    --- a/link\n    +++ b/link\n    -symbolic link to b.txt\n    +symbolic link to c.txt\n',
    );
    expect(readFileSync(outside, 'utf8')).toBe('secret\n');
    expect(readlinkSync(join(dir, 'a.txt'))).toBe(outside);
    // with --force the retargeted link was put back as the link it was
    expect(readlinkSync(join(dir, 'link'))).toBe('a.txt');
  });

  it('leaves a retargeted link alone without --force', async () => {
    const dir = project();
    symlinkSync('a.txt', join(dir, 'link'));
    writeFileSync(join(dir, 'other.txt'), 'o\n');
    await runTurn(dir, 'ln -sfn b.txt link && printf p > other.txt');
    rmSync(join(dir, 'link'));
    symlinkSync('c.txt', join(dir, 'link'));
    expect(await undo(dir)).toEqual([
      1,
      'Undid the turn "tidy up":\n  restored  other.txt\n' +
        'Left alone, changed since (your changes are kept):\n' +
        '  link: is a symbolic link to c.txt now (was to b.txt)\n' +
        '    --- a/link\n    +++ b/link\n    -symbolic link to b.txt\n    +symbolic link to c.txt\n',
      '',
    ]);
    expect(readlinkSync(join(dir, 'link'))).toBe('c.txt');
    expect(readFileSync(join(dir, 'other.txt'), 'utf8')).toBe('o\n');
  });

  it('puts back files whose names are not UTF-8 under their exact raw names', async () => {
    const dir = project();
    const raw = (name: string) => Buffer.concat([Buffer.from(`${dir}/`), Buffer.from(name, 'latin1')]);
    writeFileSync(raw('caf\xe9.txt'), Buffer.from('caf\xe9\r\n', 'latin1'));
    chmodSync(raw('caf\xe9.txt'), 0o640);
    writeFileSync(raw('old-\xff.bin'), Buffer.from([0, 1, 2]));
    await runTurn(
      dir,
      `printf 'more' >> "$(printf 'caf\\351.txt')" && rm "$(printf 'old-\\377.bin')" && printf new > "$(printf 'n\\344u.txt')"`,
    );
    const names = () =>
      readdirSync(dir, { encoding: 'buffer' })
        .filter((n) => !n.equals(Buffer.from('.opencode')))
        .map((n) => n.toString('latin1'))
        .sort();
    expect(names()).toEqual(['caf\xe9.txt', 'n\xe4u.txt']);

    expect(await undo(dir)).toEqual([
      0,
      'Undid the turn "tidy up":\n  restored  caf\ufffd.txt\n  removed   n\ufffdu.txt\n  created   old-\ufffd.bin\n',
      '',
    ]);
    expect(names()).toEqual(['caf\xe9.txt', 'old-\xff.bin']);
    expect(readFileSync(raw('caf\xe9.txt'))).toEqual(Buffer.from('caf\xe9\r\n', 'latin1'));
    expect(modeOf(raw('caf\xe9.txt'))).toBe(0o640);
    expect(readFileSync(raw('old-\xff.bin'))).toEqual(Buffer.from([0, 1, 2]));

    expect((await undo(dir, '--redo'))[0]).toBe(0);
    expect(names()).toEqual(['caf\xe9.txt', 'n\xe4u.txt']);
    expect(readFileSync(raw('caf\xe9.txt'))).toEqual(Buffer.from('caf\xe9\r\nmore', 'latin1'));
    expect(readFileSync(raw('n\xe4u.txt'), 'utf8')).toBe('new');
    expect((await undo(dir))[0]).toBe(0);
    expect(names()).toEqual(['caf\xe9.txt', 'old-\xff.bin']);
    expect(readFileSync(raw('caf\xe9.txt'))).toEqual(Buffer.from('caf\xe9\r\n', 'latin1'));
  });
});

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}
