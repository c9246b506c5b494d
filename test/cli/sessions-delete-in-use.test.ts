/**
 * `opencode sessions delete ID` of a session a running process has open: refused with the process
 * named (its pid), unless `--force`; free again once that process exits or is gone. Two real
 * processes: a `-p` run through bin/opencode on a slow reply of the loopback fake provider, and the
 * delete through bin/opencode. The TUI's side runs its real session services in this process; a
 * process killed outright (SIGKILL: no exit hook) leaves a mark its dead pid makes stale.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sessionServices } from '../../src/cli/tui-services.js';
import { openDatabase, type Database } from '../../src/db/index.js';
import { SESSIONS_IN_USE_DIR } from '../../src/db/session-in-use.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { cleanEnv, runCli, type CliRun } from '../support/cli.js';

let fake: FakeProvider | undefined;
let db: Database | undefined;
afterEach(async () => {
  db?.close();
  db = undefined;
  await fake?.close();
  fake = undefined;
});

/** Local `YYYY-MM-DD HH:MM` times replaced, so the expected text does not depend on when the test ran. */
const untimed = (text: string) => text.replace(/\d{4}-\d\d-\d\d \d\d:\d\d/g, 'TIME');
const marksOf = (dir: string, id: string) => join(dir, '.opencode', SESSIONS_IN_USE_DIR, encodeURIComponent(id));

async function until(check: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A project whose `-p` run is answering slowly: the run, its pid and its session's id. */
async function slowRun(chunkDelayMs = 1500) {
  fake = await startFakeProvider([{ text: ['Slow ', 'answer ', 'here.'], chunkDelayMs }]);
  const dir = mkdtempSync(join(tmpdir(), 'opencode-in-use-'));
  const env = cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.anthropicBaseURL });
  const cli = (args: string[]) => runCli(args, { cwd: dir, env });
  let pid = 0;
  const run: Promise<CliRun> = runCli(['-p', 'slow'], { cwd: dir, env, onSpawn: (p) => (pid = p) });
  // the request reaches the provider after the session is made and held
  await until(() => fake!.requests.length === 1, 'the -p request');
  const [session] = JSON.parse((await cli(['sessions', 'list', '--json'])).stdout) as { id: string }[];
  return { dir, env, cli, run, pid, id: session!.id };
}

const refusal = (id: string, who: string) =>
  `opencode: session ${id} "Non-interactive: slow" is in use by ${who}: quit it or open another session there first, ` +
  `or pass --force to delete it anyway (that process's next write to the session then fails)\n`;

describe('opencode sessions delete of a session in use', () => {
  it('is refused while a -p run holds it, naming its pid; the TUI refuses it too; once the run exits it goes', async () => {
    const { dir, cli, run, pid, id } = await slowRun();
    const refused = await cli(['sessions', 'delete', id.slice(0, 8)]);
    expect({ ...refused, stderr: untimed(refused.stderr) }).toMatchObject({
      code: 1,
      stdout: '',
      stderr: refusal(id, `opencode -p (pid ${pid}, since TIME)`),
    });
    expect((await cli(['sessions', 'show', id])).code).toBe(0);

    // the TUI's delete (ctrl+s → d) in another process: the dialog shows this message
    db = openDatabase(join(dir, '.opencode'));
    expect(() => sessionServices(db!, dir).delete(id)).toThrow(
      /^in use by opencode -p \(pid \d+, since [\d-]+ [\d:]+\): quit it or open another session there first$/,
    );
    expect(db.sessions.get(id)).toBeDefined();

    expect(await run).toMatchObject({ code: 0, stdout: 'Slow answer here.\n' });
    expect(existsSync(marksOf(dir, id))).toBe(false);
    expect(await cli(['sessions', 'delete', id])).toMatchObject({
      code: 0,
      stderr: '',
      stdout: `deleted session ${id} "Non-interactive: slow" (2 messages)\n`,
    });
  }, 90_000);

  it('--force deletes it while the run holds it', async () => {
    const { cli, run, id } = await slowRun();
    expect(await cli(['sessions', 'delete', '--force', id])).toMatchObject({
      code: 0,
      stderr: '',
      stdout: `deleted session ${id} "Non-interactive: slow" (2 messages)\n`,
    });
    expect((await cli(['sessions', 'show', id])).code).toBe(2);
    // the run loses its session under it, as --force's help says, and says why
    expect(await run).toMatchObject({
      code: 1,
      stdout: '',
      stderr: `opencode: session ${id} was deleted while this run was using it (\`opencode sessions delete --force\`); the reply is lost\n`,
    });
  }, 90_000);

  it('is refused while a TUI shows it, and free once the TUI shows another', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-in-use-'));
    const env = cleanEnv();
    db = openDatabase(join(dir, '.opencode'));
    const first = db.sessions.create({ title: 'First' });
    const second = db.sessions.create({ title: 'Second' });
    const tui = sessionServices(db, dir);
    tui.opened!(first.id);
    const refused = await runCli(['sessions', 'delete', first.id], { cwd: dir, env });
    expect(refused.code).toBe(1);
    expect(untimed(refused.stderr)).toBe(
      `opencode: session ${first.id} "First" is in use by the TUI (pid ${process.pid}, since TIME): quit it or open another session there first, ` +
        `or pass --force to delete it anyway (that process's next write to the session then fails)\n`,
    );
    tui.opened!(second.id);
    expect(await runCli(['sessions', 'delete', first.id], { cwd: dir, env })).toMatchObject({
      code: 0,
      stdout: `deleted session ${first.id} "First" (0 messages)\n`,
    });
    // the TUI deletes the session it shows itself: its own mark does not stop it
    tui.delete(second.id);
    expect(db.sessions.get(second.id)).toBeUndefined();
    expect(existsSync(marksOf(dir, second.id))).toBe(false);
  }, 60_000);

  it('is not refused by the mark of a process killed outright (its pid is gone): the stale mark is removed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-in-use-'));
    const env = cleanEnv();
    db = openDatabase(join(dir, '.opencode'));
    const session = db.sessions.create({ title: 'Crashed' });
    const holder = join(dir, 'hold.mts');
    writeFileSync(
      holder,
      `import { holdSession } from ${JSON.stringify(join(import.meta.dirname, '../../src/db/session-in-use.ts'))};\n` +
        `holdSession(${JSON.stringify(join(dir, '.opencode'))}, ${JSON.stringify(session.id)}, 'tui');\nconsole.log('held');\nsetInterval(() => {}, 1000);\n`,
    );
    const child = spawn(process.execPath, ['--import', 'tsx', holder], {
      cwd: join(import.meta.dirname, '../..'),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve) => child.stdout.on('data', () => resolve()));
    expect(readdirSync(marksOf(dir, session.id))).toEqual([`${child.pid}.json`]);
    expect((await runCli(['sessions', 'delete', session.id], { cwd: dir, env })).code).toBe(1);
    child.kill('SIGKILL');
    await new Promise((resolve) => child.on('exit', resolve));
    expect(readdirSync(marksOf(dir, session.id))).toEqual([`${child.pid}.json`]);
    expect(await runCli(['sessions', 'delete', session.id], { cwd: dir, env })).toMatchObject({
      code: 0,
      stdout: `deleted session ${session.id} "Crashed" (0 messages)\n`,
    });
    expect(existsSync(marksOf(dir, session.id))).toBe(false);
  }, 60_000);
});
