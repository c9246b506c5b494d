/**
 * Undo of what `bash` changed, through `bin/opencode -p` with the fake provider, a real
 * SQLite file and real git: a command that runs `sed -i` on a CRLF Latin-1 file, creates a file,
 * deletes one and makes one executable is taken back by `opencode sessions undo` byte for byte and
 * mode for mode, and redone; a file a person changed since is left alone; ignored files, the
 * project's `.gitattributes`, a personal `core.autocrlf` and the project's own `.git` play no part; without git the undo says so once and
 * still undoes `write`.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeProvider, type FakeProvider, type FakeToolCall } from '../support/fake-provider.js';
import { cleanEnv, runCli } from '../support/cli.js';

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const LATIN1_CRLF = Buffer.from('caf\xe9 ol\xe9\r\nna\xefve\r\nfin\r\n', 'latin1');
const COMMAND =
  "LC_ALL=C sed -i 's/ol/OL/' latin.txt && printf 'brand new\\n' > created.txt && rm gone.txt && chmod +x tool.sh && echo more >> ignored.log";

function modeOf(path: string): number {
  return statSync(path).mode & 0o7777;
}

/** Every file under `dir` (links as their target), by relative path: a fingerprint of the folder. */
function treeHash(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (entry.isSymbolicLink()) out[relative(dir, p)] = `link:${readlinkSync(p)}`;
      else
        out[relative(dir, p)] =
          `${modeOf(p).toString(8)}:${createHash('sha1').update(readFileSync(p)).digest('hex')}:${statSync(p).mtimeMs}`;
    }
  };
  walk(dir);
  return out;
}

/** A project with its own git repository, a .gitignore, a .gitattributes asking for LF, and the files the command changes. */
function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'opencode-undo-bash-'));
  writeFileSync(join(dir, '.gitignore'), 'ignored.log\n');
  writeFileSync(join(dir, '.gitattributes'), '* text=auto eol=lf\n');
  writeFileSync(join(dir, 'latin.txt'), LATIN1_CRLF);
  chmodSync(join(dir, 'latin.txt'), 0o640);
  writeFileSync(join(dir, 'gone.txt'), 'delete me\r\n');
  chmodSync(join(dir, 'gone.txt'), 0o600);
  writeFileSync(join(dir, 'tool.sh'), '#!/bin/sh\necho hi\n');
  chmodSync(join(dir, 'tool.sh'), 0o644);
  writeFileSync(join(dir, 'ignored.log'), 'log\n');
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: dir, stdio: 'pipe' });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-qm', 'init');
  return dir;
}

const env = (f: FakeProvider, extra: Record<string, string> = {}) =>
  cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: f.anthropicBaseURL, ...extra });

function sessionIdOf(dir: string): string {
  const db = new Database(join(dir, '.opencode', 'opencode.db'), { readonly: true });
  const row = db.prepare('SELECT id FROM sessions').get() as { id: string };
  db.close();
  return row.id;
}

/** The bash result's metadata, as stored. */
function bashMetadata(dir: string): Record<string, unknown> | undefined {
  const db = new Database(join(dir, '.opencode', 'opencode.db'), { readonly: true });
  const rows = db.prepare("SELECT parts FROM messages WHERE role = 'tool' ORDER BY seq").all() as { parts: string }[];
  db.close();
  for (const row of rows) for (const part of JSON.parse(row.parts)) if (part.name === 'bash') return part.metadata;
  return undefined;
}

/** Runs the turn: one bash call, then the answer. */
async function runTurn(
  dir: string,
  extraEnv: Record<string, string> = {},
  calls: FakeToolCall[] = [{ name: 'bash', input: { command: COMMAND } }],
) {
  fake = await startFakeProvider([{ toolCalls: calls }, { text: 'Done.' }]);
  const runEnv = env(fake, extraEnv);
  // a person's git settings that would change bytes: the snapshots must not apply them
  writeFileSync(join(runEnv.HOME!, '.gitconfig'), '[core]\n\tautocrlf = true\n\teol = crlf\n');
  const run = await runCli(['--trust', '-p', 'tidy up'], { cwd: dir, env: runEnv });
  expect(run.stderr).toBe('');
  expect(run).toMatchObject({ code: 0, stdout: 'Done.\n' });
}

describe('undo of what bash changed', () => {
  it('puts back sed -i on a CRLF Latin-1 file, a created, a deleted and a chmodded file exactly; redo changes them again', async () => {
    const dir = project();
    const gitBefore = treeHash(join(dir, '.git'));
    await runTurn(dir);
    const after = {
      latin: readFileSync(join(dir, 'latin.txt')),
      created: readFileSync(join(dir, 'created.txt')),
    };
    expect(after.latin).toEqual(Buffer.from('caf\xe9 OL\xe9\r\nna\xefve\r\nfin\r\n', 'latin1'));
    expect(existsSync(join(dir, 'gone.txt'))).toBe(false);
    expect(modeOf(join(dir, 'tool.sh'))).toBe(0o755);
    expect(bashMetadata(dir)?.untrackedChanges).toBeUndefined();

    const id = sessionIdOf(dir);
    const undo = await runCli(['sessions', 'undo', id], { cwd: dir, env: cleanEnv() });
    expect(undo.stderr).toBe('');
    expect(undo.stdout).toBe(
      'Undid the turn "tidy up":\n  removed   created.txt\n  created   gone.txt\n  restored  latin.txt\n  restored  tool.sh\n',
    );
    expect(undo.code).toBe(0);
    expect(readFileSync(join(dir, 'latin.txt'))).toEqual(LATIN1_CRLF);
    expect(modeOf(join(dir, 'latin.txt'))).toBe(0o640);
    expect(existsSync(join(dir, 'created.txt'))).toBe(false);
    expect(readFileSync(join(dir, 'gone.txt'), 'latin1')).toBe('delete me\r\n');
    expect(modeOf(join(dir, 'gone.txt'))).toBe(0o600);
    expect(readFileSync(join(dir, 'tool.sh'), 'utf8')).toBe('#!/bin/sh\necho hi\n');
    expect(modeOf(join(dir, 'tool.sh'))).toBe(0o644);
    // ignored by .gitignore: not snapshotted, so not touched by the undo
    expect(readFileSync(join(dir, 'ignored.log'), 'utf8')).toBe('log\nmore\n');

    const redo = await runCli(['sessions', 'undo', id, '--redo'], { cwd: dir, env: cleanEnv() });
    expect([redo.code, redo.stderr]).toEqual([0, '']);
    expect(readFileSync(join(dir, 'latin.txt'))).toEqual(after.latin);
    expect(readFileSync(join(dir, 'created.txt'))).toEqual(after.created);
    expect(existsSync(join(dir, 'gone.txt'))).toBe(false);
    expect(modeOf(join(dir, 'tool.sh'))).toBe(0o755);

    // the project's own repository: not a byte, mode or time of it changed
    expect(treeHash(join(dir, '.git'))).toEqual(gitBefore);
  });

  it("puts bash's changes in the session's file history (the sidebar's modified files), as text", async () => {
    const dir = project();
    await runTurn(dir);
    const db = new Database(join(dir, '.opencode', 'opencode.db'), { readonly: true });
    const rows = db.prepare('SELECT path, version, content FROM files ORDER BY path, created_at, rowid').all() as {
      path: string;
      version: string;
      content: string;
    }[];
    db.close();
    expect(rows.map((r) => [r.path.slice(dir.length + 1), r.version, r.content])).toEqual([
      ['created.txt', 'initial', ''],
      ['created.txt', 'v1', 'brand new\n'],
      ['gone.txt', 'initial', 'delete me\n'],
      ['gone.txt', 'v1', ''],
      ['latin.txt', 'initial', 'caf\u00e9 ol\u00e9\nna\u00efve\nfin\n'],
      ['latin.txt', 'v1', 'caf\u00e9 OL\u00e9\nna\u00efve\nfin\n'],
      ['tool.sh', 'initial', '#!/bin/sh\necho hi\n'],
    ]);
  });

  it('leaves a file a person changed after the turn alone, with the difference, and undoes the rest', async () => {
    const dir = project();
    await runTurn(dir);
    writeFileSync(join(dir, 'created.txt'), 'brand new\nmine\n');
    const undo = await runCli(['sessions', 'undo', sessionIdOf(dir)], { cwd: dir, env: cleanEnv() });
    expect(undo.code).toBe(1);
    expect(undo.stdout).toBe(
      'Undid the turn "tidy up":\n  created   gone.txt\n  restored  latin.txt\n  restored  tool.sh\n' +
        'Left alone, changed since (your changes are kept):\n' +
        '  created.txt: changed since\n' +
        '    --- a/created.txt\n    +++ b/created.txt\n    @@ -1,1 +1,2 @@\n     brand new\n    +mine\n',
    );
    expect(readFileSync(join(dir, 'created.txt'), 'utf8')).toBe('brand new\nmine\n');
    expect(readFileSync(join(dir, 'latin.txt'))).toEqual(LATIN1_CRLF);
  });

  it('puts back what a project custom tool (not read-only) changed', async () => {
    const dir = project();
    mkdirSync(join(dir, '.opencode', 'tools'), { recursive: true });
    writeFileSync(
      join(dir, '.opencode', 'tools', 'stamp.json'),
      JSON.stringify({
        name: 'stamp',
        description: 'Stamps the project.',
        command: ['sh', '-c', 'printf stamped > stamp.txt && rm gone.txt'],
      }),
    );
    await runTurn(dir, {}, [{ name: 'stamp', input: {} }]);
    expect(readFileSync(join(dir, 'stamp.txt'), 'utf8')).toBe('stamped');
    const undo = await runCli(['sessions', 'undo', sessionIdOf(dir)], { cwd: dir, env: cleanEnv() });
    expect([undo.code, undo.stderr, undo.stdout]).toEqual([
      0,
      '',
      'Undid the turn "tidy up":\n  created   gone.txt\n  removed   stamp.txt\n',
    ]);
    expect(readFileSync(join(dir, 'gone.txt'), 'latin1')).toBe('delete me\r\n');
    expect(existsSync(join(dir, 'stamp.txt'))).toBe(false);
  });

  it('without git on PATH: bash changes are not tracked, the undo says so once, and write is still undone', async () => {
    const dir = project();
    // PATH: everything of /usr/bin and /bin but git
    const bin = mkdtempSync(join(tmpdir(), 'opencode-nogit-'));
    for (const folder of ['/usr/bin', '/bin']) {
      if (!existsSync(folder)) continue;
      for (const name of readdirSync(folder)) {
        if (name.startsWith('git') || existsSync(join(bin, name))) continue;
        symlinkSync(join(folder, name), join(bin, name));
      }
    }
    mkdirSync(join(dir, 'sub'));
    await runTurn(dir, { PATH: bin }, [
      { name: 'write', input: { file_path: join(dir, 'sub', 'w.txt'), content: 'written\n' } },
      { name: 'bash', input: { command: 'rm gone.txt' } },
      { name: 'bash', input: { command: 'rm tool.sh' } },
    ]);
    expect(bashMetadata(dir)?.untrackedChanges).toEqual(['files changed by bash are not tracked: git not found']);
    const undo = await runCli(['sessions', 'undo', sessionIdOf(dir)], { cwd: dir, env: cleanEnv({ PATH: bin }) });
    expect(undo.stderr).toBe('');
    expect(undo.stdout).toBe(
      'Undid the turn "tidy up":\n  removed   sub/w.txt\n' +
        'Not put back (changes that were not tracked stay as they are):\n' +
        '  files changed by bash are not tracked: git not found\n',
    );
    expect(undo.code).toBe(0);
    expect(existsSync(join(dir, 'sub', 'w.txt'))).toBe(false);
    expect(existsSync(join(dir, 'gone.txt'))).toBe(false);
    // nothing left to undo: the reason bash's changes stay is still given
    const again = await runCli(['sessions', 'undo', sessionIdOf(dir)], { cwd: dir, env: cleanEnv({ PATH: bin }) });
    expect([again.code, again.stdout, again.stderr]).toEqual([
      1,
      '',
      'opencode: Nothing to undo: no turn of this session has file changes left to undo. Not tracked: files changed by bash are not tracked: git not found.\n',
    ]);
  });
});
