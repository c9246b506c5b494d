/**
 * The journal of what a process has out (temp files of atomic writes, shell state directories,
 * process groups) and the clean-up at the next start, after a crash. A real child
 * process journals a temp file and is killed with SIGKILL; pid reuse is checked with real processes
 * (a group is ended only when its leader's start time matches the journal).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanLeftovers, LeftoverJournal, type RunJournal } from '../../src/app/leftovers.js';
import { processStartTicks } from '../../src/process-identity.js';
import { writeFileAtomic } from '../../src/tools/file-io.js';
import { setLeftoverRecorder, type LeftoverRecorder } from '../../src/tools/leftovers.js';
import { tempDir } from '../support/recording-context.js';

const SRC = join(import.meta.dirname, '..', '..', 'src');
let tmp: { dir: string; remove(): void };
let root: string;
const strays: number[] = [];

beforeEach(() => {
  tmp = tempDir('opencode-leftovers-');
  root = realpathSync(tmp.dir);
});
afterEach(() => {
  setLeftoverRecorder(undefined);
  for (const pid of strays.splice(0)) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
  tmp.remove();
});

function alive(pid: number): boolean {
  return processStartTicks(pid) !== null;
}

async function eventually(condition: () => boolean, limitMs = 10_000): Promise<boolean> {
  for (const end = Date.now() + limitMs; Date.now() < end; await new Promise((r) => setTimeout(r, 25))) {
    if (condition()) return true;
  }
  return condition();
}

/** A finished process's pid: dead, as a crashed opencode's is. */
function deadPid(): number {
  return spawnSync('true').pid!;
}

/** A journal as a process that started at unix ms 1000 leaves it. */
function writeJournal(dataDir: string, journal: Omit<RunJournal, 'startedAtMs'>): string {
  mkdirSync(join(dataDir, 'state'), { recursive: true });
  const file = join(dataDir, 'state', `run-${journal.process.pid}.json`);
  writeFileSync(file, JSON.stringify({ ...journal, startedAtMs: 1000 }));
  return file;
}

describe('writeFileAtomic reports its temp file', () => {
  it('before creating it and after renaming it, also when it cannot be created', () => {
    const events: string[] = [];
    const recorder: LeftoverRecorder = {
      tempFileCreating: (p) => events.push(`creating ${p}`),
      tempFileGone: (p) => events.push(`gone ${p}`),
      stateDirCreated: () => {},
      stateDirRemoved: () => {},
      processGroupStarted: () => {},
      processGroupEnded: () => {},
    };
    setLeftoverRecorder(recorder);
    writeFileAtomic(join(root, 'a.txt'), Buffer.from('x'));
    expect(events).toHaveLength(2);
    const temp = events[0]!.slice('creating '.length);
    expect(temp).toMatch(new RegExp(`^${root}/\\.a\\.txt\\.${process.pid}\\.[0-9a-f]{8}\\.tmp$`));
    expect(events[1]).toBe(`gone ${temp}`);

    events.length = 0;
    // its folder is missing: the temp file cannot be created
    expect(() => writeFileAtomic(join(root, 'missing', 'b.txt'), Buffer.from('x'))).toThrow(/ENOENT|cannot create/);
    expect(events.map((e) => e.split(' ')[0])).toEqual(['creating', 'gone']);
  });
});

describe('after a kill -9', () => {
  it('the next start removes the temp file the killed process journaled, and its journal', async () => {
    const dataDir = join(root, '.opencode');
    const temp = join(root, `.notes.md.4242.0badc0de.tmp`);
    const script = join(root, 'crash.ts');
    writeFileSync(
      script,
      [
        `import { writeFileSync } from 'node:fs';`,
        `import { LeftoverJournal } from ${JSON.stringify(pathToFileURL(join(SRC, 'app', 'leftovers.ts')).href)};`,
        `const journal = new LeftoverJournal(${JSON.stringify(dataDir)});`,
        `journal.tempFileCreating(${JSON.stringify(temp)});`,
        `writeFileSync(${JSON.stringify(temp)}, 'half a file');`,
        `process.stdout.write('ready\\n');`,
        `setInterval(() => {}, 1000);`,
      ].join('\n'),
    );
    const child = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
      child.on('exit', (code) => reject(new Error(`child exited with ${code}`)));
    });
    const journalFile = join(dataDir, 'state', `run-${child.pid}.json`);
    expect(existsSync(journalFile)).toBe(true);
    child.kill('SIGKILL');
    await new Promise((r) => child.on('exit', r));

    const cleanup = cleanLeftovers(dataDir, root);

    expect(cleanup).toEqual({
      removedTempFiles: [temp],
      removedStateDirs: [],
      endedGroups: [],
      othersRunning: 0,
      crashedSinceMs: expect.any(Number),
    });
    expect(cleanup.crashedSinceMs).toBeLessThanOrEqual(Date.now());
    expect(existsSync(temp)).toBe(false);
    expect(existsSync(journalFile)).toBe(false);
  }, 30_000);

  it('leaves a live process alone: its journal, temp files and groups', () => {
    const dataDir = join(root, '.opencode');
    const temp = join(root, '.x.txt.1.00000000.tmp');
    writeFileSync(temp, '');
    const file = writeJournal(dataDir, {
      process: { pid: process.ppid, startTicks: processStartTicks(process.ppid) },
      tempFiles: [temp],
      stateDirs: [],
      groups: [],
    });
    expect(cleanLeftovers(dataDir, root)).toMatchObject({ removedTempFiles: [], othersRunning: 1 });
    expect(existsSync(temp)).toBe(true);
    expect(existsSync(file)).toBe(true);
  });

  it('removes only files named like our temp files, and only state dirs named like ours', () => {
    const dataDir = join(root, '.opencode');
    const precious = join(root, 'precious.txt');
    writeFileSync(precious, 'keep');
    const notOurs = join(root, 'some-dir');
    mkdirSync(notOurs);
    writeJournal(dataDir, {
      process: { pid: deadPid(), startTicks: '1' },
      tempFiles: [precious],
      stateDirs: [notOurs],
      groups: [],
    });
    expect(cleanLeftovers(dataDir, root)).toEqual({
      removedTempFiles: [],
      removedStateDirs: [],
      endedGroups: [],
      othersRunning: 0,
      crashedSinceMs: 1000,
    });
    expect(readFileSync(precious, 'utf8')).toBe('keep');
    expect(existsSync(notOurs)).toBe(true);
  });

  it('sweeps shell state directories of dead processes from the temp folder, not those of live ones', () => {
    const dead = join(root, `opencode-shell-${deadPid()}-abc123`);
    const live = join(root, `opencode-shell-${process.pid}-def456`);
    mkdirSync(dead);
    writeFileSync(join(dead, '3.env'), "export A='b'\n");
    mkdirSync(live);
    const cleanup = cleanLeftovers(join(root, '.opencode'), root);
    expect(cleanup.removedStateDirs).toEqual([dead]);
    expect(readdirSync(root).sort()).toEqual([`opencode-shell-${process.pid}-def456`]);
  });
});

describe.skipIf(process.platform !== 'linux')('ending process groups that outlived a killed process', () => {
  function startGroup(): number {
    const child = spawn('sleep', ['300'], { detached: true, stdio: 'ignore' });
    child.unref();
    strays.push(child.pid!);
    return child.pid!;
  }

  it('ends a group whose leader is the process that was journaled (same start time)', async () => {
    const pgid = startGroup();
    const dataDir = join(root, '.opencode');
    writeJournal(dataDir, {
      process: { pid: deadPid(), startTicks: '1' },
      tempFiles: [],
      stateDirs: [],
      groups: [{ pid: pgid, startTicks: processStartTicks(pgid) }],
    });
    expect(cleanLeftovers(dataDir, root).endedGroups).toEqual([pgid]);
    expect(await eventually(() => !alive(pgid))).toBe(true);
  });

  it('leaves a group alone when its pid now belongs to another process (start time differs)', () => {
    const pgid = startGroup();
    const dataDir = join(root, '.opencode');
    writeJournal(dataDir, {
      process: { pid: deadPid(), startTicks: '1' },
      tempFiles: [],
      stateDirs: [],
      groups: [{ pid: pgid, startTicks: '1' }],
    });
    expect(cleanLeftovers(dataDir, root).endedGroups).toEqual([]);
    expect(alive(pgid)).toBe(true);
  });

  it('a journal of this very process is never cleaned', () => {
    const dataDir = join(root, '.opencode');
    const journal = new LeftoverJournal(dataDir);
    const temp = join(root, '.y.txt.1.00000000.tmp');
    writeFileSync(temp, '');
    journal.tempFileCreating(temp);
    expect(cleanLeftovers(dataDir, root)).toMatchObject({ removedTempFiles: [], othersRunning: 0 });
    expect(existsSync(temp)).toBe(true);
    journal.tempFileGone(temp);
    journal.close();
    expect(readdirSync(join(dataDir, 'state'))).toEqual([]);
  });
});
