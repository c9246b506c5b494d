/**
 * An editor's sessions are in use (the marks of `db/session-in-use.ts`, as the TUI and -p write
 * them): `opencode sessions delete ID` of a session an `opencode acp` process has open is refused,
 * naming that process, until the editor closes it (`session/close`) or the process exits. Before,
 * ACP wrote no mark and the delete went through under the editor. Two real processes: bin/opencode acp
 * driven by the SDK client, and the delete through bin/opencode.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SESSIONS_IN_USE_DIR } from '../../src/db/session-in-use.js';
import { acpPerTest } from '../support/acp-per-test.js';
import { cleanEnv, runCli } from '../support/cli.js';

const acp = acpPerTest();

/** Local `YYYY-MM-DD HH:MM` times replaced, so the expected text does not depend on when the test ran. */
const untimed = (text: string) => text.replace(/\d{4}-\d\d-\d\d \d\d:\d\d/g, 'TIME');
const marksOf = (dir: string, id: string) => join(dir, '.opencode', SESSIONS_IN_USE_DIR, encodeURIComponent(id));

const refusal = (id: string, pid: number) =>
  `opencode: session ${id} "New Session" is in use by opencode acp (an editor) (pid ${pid}, since TIME): quit it or open another session there first, ` +
  `or pass --force to delete it anyway (that process's next write to the session then fails)\n`;

describe('opencode sessions delete of a session an editor has open through opencode acp', () => {
  it('is refused while it is open; goes after session/close; a loaded one is held until the process exits', async () => {
    const fake = await acp.startFake([]);
    const dir = mkdtempSync(join(tmpdir(), 'opencode-acp-in-use-'));
    const env = cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.anthropicBaseURL });
    const cli = (args: string[]) => runCli(args, { cwd: dir, env });
    const agent = acp.startAgent({ cwd: dir, env });
    const pid = agent.child.pid!;
    await agent.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
    const { sessionId: a } = await agent.agent.request('session/new', { cwd: dir, mcpServers: [] });
    const { sessionId: b } = await agent.agent.request('session/new', { cwd: dir, mcpServers: [] });

    // the mark: one file per session, naming this process as an acp holder
    expect(readdirSync(marksOf(dir, a))).toEqual([`${pid}.json`]);
    expect(JSON.parse(readFileSync(join(marksOf(dir, a), `${pid}.json`), 'utf8'))).toMatchObject({
      sessionId: a,
      pid,
      holder: 'acp',
    });

    const refused = await cli(['sessions', 'delete', a]);
    expect({ ...refused, stderr: untimed(refused.stderr) }).toMatchObject({
      code: 1,
      stdout: '',
      stderr: refusal(a, pid),
    });
    expect((await cli(['sessions', 'show', a])).code).toBe(0);

    // session/close lets go of it: the delete goes through; b is still held
    expect(await agent.agent.request('session/close', { sessionId: a })).toEqual({});
    expect(existsSync(marksOf(dir, a))).toBe(false);
    expect((await cli(['sessions', 'delete', a])).code).toBe(0);
    expect((await cli(['sessions', 'delete', b])).code).toBe(1);

    // closed, then loaded again: held again
    expect(await agent.agent.request('session/close', { sessionId: b })).toEqual({});
    expect(existsSync(marksOf(dir, b))).toBe(false);
    expect(await agent.agent.request('session/load', { sessionId: b, cwd: dir, mcpServers: [] })).toEqual({});
    expect(readdirSync(marksOf(dir, b))).toEqual([`${pid}.json`]);
    const again = await cli(['sessions', 'delete', b]);
    expect({ ...again, stderr: untimed(again.stderr) }).toMatchObject({ code: 1, stdout: '', stderr: refusal(b, pid) });

    // the editor goes (stdin closed): the process exits and its marks go with it
    expect(await agent.close()).toBe(0);
    expect(existsSync(marksOf(dir, b))).toBe(false);
    expect(await cli(['sessions', 'delete', b])).toMatchObject({ code: 0, stderr: '' });
  }, 60_000);
});
