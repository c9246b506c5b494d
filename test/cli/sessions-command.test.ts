/**
 * Issue 14: `opencode sessions list|show|export|import|delete` through bin/opencode on real SQLite
 * files, with sessions made by real `-p` runs against the loopback fake provider (one with a tool
 * call, one with a sub-agent). Export → import → show round-trips exactly; import never overwrites a
 * session that is already there; output piped has no colour.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MODELS } from '../../src/provider/catalog.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { cleanEnv, runCli } from '../support/cli.js';

let fake: FakeProvider;
let dir: string;
let env: Record<string, string>;
/** ids of the sessions made in `dir`: the one with the `ls` call, the one with the sub-agent, and the sub-agent's */
let lsId: string;
let agentId: string;
let childId: string;

const project = () => mkdtempSync(join(tmpdir(), 'opencode-sessions-'));
const cli = (args: string[], cwd = dir, stdin?: string) => runCli(args, { cwd, env, stdin });
/** Local `YYYY-MM-DD HH:MM` times replaced, so the expected text does not depend on when the test ran. */
const untimed = (text: string) => text.replace(/\d{4}-\d\d-\d\d \d\d:\d\d/g, 'TIME');
const CODER = DEFAULT_MODELS.anthropic.coder;

beforeAll(async () => {
  fake = await startFakeProvider([
    { text: 'Looking.', toolCalls: [{ id: 'toolu_ls', name: 'ls', input: {} }] },
    { text: 'Only README.md.' },
    { toolCalls: [{ id: 'toolu_agent', name: 'agent', input: { prompt: 'find the build command' } }] },
    { text: 'The build command is make.' },
    { text: 'Use make.' },
  ]);
  dir = project();
  writeFileSync(join(dir, 'README.md'), '# demo\n');
  env = cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.anthropicBaseURL });
  expect(await cli(['-p', 'what is here?'])).toMatchObject({ code: 0, stdout: 'Only README.md.\n' });
  expect(await cli(['-p', 'how do I build?'])).toMatchObject({ code: 0, stdout: 'Use make.\n' });
  const list = JSON.parse((await cli(['sessions', 'list', '--json'])).stdout) as { id: string; title: string }[];
  lsId = list.find((s) => s.title === 'Non-interactive: what is here?')!.id;
  agentId = list.find((s) => s.title === 'Non-interactive: how do I build?')!.id;
  childId = list.find((s) => s.title === 'Task: find the build command')!.id;
}, 120_000);

afterAll(async () => {
  await fake?.close();
});

describe('opencode sessions list', () => {
  it('prints a table without colour when piped: newest first, sub-agent sessions under theirs', async () => {
    const run = await cli(['sessions', 'list']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).not.toContain('\u001b');
    const rows = untimed(run.stdout).split('\n');
    expect(rows[0]).toMatch(/^ID +TITLE +UPDATED +MESSAGES +COST$/);
    expect(rows.slice(1).map((r) => r.replace(/^\S+ +/, '').replace(/ {2,}/g, ' | '))).toEqual([
      'Non-interactive: how do I build? | TIME | 4 | $0.0002',
      '↳ Task: find the build command | TIME | 2 | $0.0001',
      'Non-interactive: what is here? | TIME | 4 | $0.0001',
      '',
    ]);
    // ids are shortened to a unique prefix of at least 8 characters (random ids: 8 tell them apart)
    expect(rows.slice(1, 4).map((r) => r.split(' ')[0])).toEqual([
      agentId.slice(0, 8),
      childId.slice(0, 8),
      lsId.slice(0, 8),
    ]);
  }, 60_000);

  it('prints JSON with --json', async () => {
    const run = await cli(['sessions', 'list', '--json']);
    const list = JSON.parse(run.stdout) as Record<string, unknown>[];
    expect(list.map((s) => [s.id, s.parentSessionId, s.messages])).toEqual([
      [agentId, null, 4],
      [childId, agentId, 2],
      [lsId, null, 4],
    ]);
    expect(list[2]).toEqual({
      id: lsId,
      parentSessionId: null,
      title: 'Non-interactive: what is here?',
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updatedAt: expect.stringMatching(/Z$/),
      lastUsedInTuiAt: null,
      messages: 4,
      tokens: { input: 20, output: 10, cacheRead: 0, cacheWrite: 0, total: 30 },
      costUsd: expect.any(Number),
    });
  }, 60_000);

  it('says so in a project without sessions, and creates no database', async () => {
    const empty = project();
    expect(await cli(['sessions', 'list'], empty)).toMatchObject({
      code: 0,
      stdout: 'No sessions in this project yet.\n',
    });
    expect(await cli(['sessions', 'list', '--json'], empty)).toMatchObject({ code: 0, stdout: '[]\n' });
    expect(existsSync(join(empty, '.opencode', 'opencode.db'))).toBe(false);
  }, 60_000);
});

describe('opencode sessions show', () => {
  it('prints the conversation, tool calls summarised with their results, by a prefix of the id', async () => {
    const run = await cli(['sessions', 'show', lsId.slice(0, 8)]);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(untimed(run.stdout)).toBe(
      [
        'Non-interactive: what is here?',
        `session ${lsId}  ·  updated TIME  ·  4 messages  ·  $0.0001`,
        '',
        '── you · TIME',
        'what is here?',
        '',
        `── assistant · ${CODER} · TIME`,
        'Looking.',
        '  ▸ ls',
        '    2 lines: - ' + dir + '/',
        'Only README.md.',
        '',
      ].join('\n'),
    );
  }, 60_000);

  it('refuses an unknown id with exit 2 and a pointer to the list', async () => {
    expect(await cli(['sessions', 'show', 'nope'])).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'opencode: no session nope; `opencode sessions list` shows them\n',
    });
  }, 60_000);
});

describe('opencode sessions export', () => {
  it('writes markdown by default: turns as sections, each tool call in a collapsed block with its input and output', async () => {
    const run = await cli(['sessions', 'export', lsId]);
    expect(run.code).toBe(0);
    expect(untimed(run.stdout)).toBe(
      [
        '# Non-interactive: what is here?',
        '',
        `- Session: \`${lsId}\``,
        '- Created: TIME, updated: TIME',
        '- Messages: 4, tokens: 30, cost: $0.0001',
        '',
        '### You',
        '',
        'what is here?',
        '',
        `### Assistant (${CODER})`,
        '',
        'Looking.',
        '',
        `<details><summary>ls — 2 lines: - ${dir}/</summary>`,
        '',
        'Input:',
        '',
        '```json',
        '{}',
        '```',
        '',
        'Output:',
        '',
        '```',
        `- ${dir}/`,
        '  - README.md',
        '```',
        '',
        '</details>',
        '',
        'Only README.md.',
        '',
      ].join('\n'),
    );
  }, 60_000);

  it('nests a sub-agent conversation under its agent call', async () => {
    const md = (await cli(['sessions', 'export', agentId, '--format', 'md'])).stdout;
    expect(md).toContain(
      '<details><summary>agent: find the build command — 1 line: The build command is make.</summary>',
    );
    expect(md).toContain(
      `Output:\n\n\`\`\`\nThe build command is make.\n\`\`\`\n\nSub-agent session \`${childId}\`:\n\n#### You\n\nfind the build command\n\n#### Assistant (${CODER})\n\nThe build command is make.\n\n</details>\n\nUse make.\n`,
    );
  }, 60_000);
});

describe('opencode sessions export --format json, then import', () => {
  it('round-trips exactly into another project: show and a second export are the same', async () => {
    const exported = await cli(['sessions', 'export', agentId, '--format', 'json']);
    expect(exported.code).toBe(0);
    const data = JSON.parse(exported.stdout);
    expect(data.sessions.map((s: { id: string }) => s.id)).toEqual([agentId, childId]);

    const other = project();
    const file = join(other, 'session.json');
    writeFileSync(file, exported.stdout);
    expect(await cli(['sessions', 'import', file], other)).toMatchObject({
      code: 0,
      stdout: `imported session ${agentId} "Non-interactive: how do I build?", 4 messages\n`,
      stderr: '',
    });
    expect((await cli(['sessions', 'show', agentId], other)).stdout).toBe(
      (await cli(['sessions', 'show', agentId])).stdout,
    );
    expect((await cli(['sessions', 'show', childId], other)).stdout).toBe(
      (await cli(['sessions', 'show', childId])).stdout,
    );
    expect((await cli(['sessions', 'export', agentId, '--format', 'json'], other)).stdout).toBe(exported.stdout);
    expect((await cli(['sessions', 'list', '--json'], other)).stdout).toBe(
      JSON.stringify(JSON.parse((await cli(['sessions', 'list', '--json'])).stdout).slice(0, 2), null, 2) + '\n',
    );
  }, 60_000);

  it('never overwrites a session that is here: the same file imported again gets new ids, references followed', async () => {
    const exported = (await cli(['sessions', 'export', agentId, '--format', 'json'])).stdout;
    const run = await cli(['sessions', 'import', '-'], dir, exported);
    expect(run.code).toBe(0);
    const match =
      /^imported session (\S+) "Non-interactive: how do I build\?", 4 messages \(a session with its id (\S+) or one of its messages is already here, so it got a new id\)\n$/.exec(
        run.stdout,
      );
    expect(match?.[2]).toBe(agentId);
    const newId = match![1]!;
    expect(newId).not.toBe(agentId);
    const copy = JSON.parse((await cli(['sessions', 'export', newId, '--format', 'json'])).stdout);
    const original = JSON.parse(exported);
    // the sub-agent session got a new id too, and the agent call's result points at it
    expect(copy.sessions[1].parentSessionId).toBe(newId);
    expect(copy.sessions[1].id).not.toBe(childId);
    const agentResult = copy.messages
      .flatMap((m: { parts: { type: string; metadata?: { sessionId?: string } }[] }) => m.parts)
      .find((p: { type: string; metadata?: { sessionId?: string } }) => p.metadata?.sessionId);
    expect(agentResult.metadata.sessionId).toBe(copy.sessions[1].id);
    // the conversation itself is the same
    const strip = (d: typeof original) =>
      d.messages.map((m: { role: string; seq: number; createdAt: number }) => [m.role, m.seq, m.createdAt]);
    expect(strip(copy)).toEqual(strip(original));
    // the original is untouched
    expect((await cli(['sessions', 'export', agentId, '--format', 'json'])).stdout).toBe(exported);
    await cli(['sessions', 'delete', newId]);
  }, 60_000);

  it('refuses a file that is not an export, saying what is wrong (exit 2)', async () => {
    const other = project();
    const write = (name: string, text: string) => {
      writeFileSync(join(other, name), text);
      return join(other, name);
    };
    expect(await cli(['sessions', 'import', join(other, 'missing.json')], other)).toMatchObject({
      code: 2,
      stderr: `opencode: cannot read ${join(other, 'missing.json')}: no such file\n`,
    });
    const notJson = await cli(['sessions', 'import', write('a.json', '{ nope')], other);
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toMatch(
      /^opencode: .*a\.json is not JSON \(.*\); import reads what `opencode sessions export ID --format json` writes\n$/,
    );
    expect(await cli(['sessions', 'import', write('b.json', '{"messages": []}')], other)).toMatchObject({
      code: 2,
      stderr: `opencode: cannot import ${join(other, 'b.json')}: not an opencode session export (its "format" is null, expected "opencode-session"); make one with: opencode sessions export ID --format json\n`,
    });
    const bad = {
      format: 'opencode-session',
      version: 1,
      sessions: [
        {
          id: 's',
          title: 't',
          promptTokens: 0,
          completionTokens: 0,
          cacheReadTokens: 0,
          cacheWriteTokens: 0,
          contextTokens: 0,
          costUsd: 0,
          createdAt: 1,
          updatedAt: 1,
        },
      ],
      messages: [
        {
          id: 'm',
          sessionId: 's',
          role: 'user',
          seq: 1,
          createdAt: 1,
          updatedAt: 1,
          parts: [{ type: 'txt', text: 'hi' }],
        },
      ],
      files: [],
    };
    const wrongPart = await cli(['sessions', 'import', write('c.json', JSON.stringify(bad))], other);
    expect(wrongPart.code).toBe(2);
    expect(wrongPart.stderr).toMatch(/^opencode: cannot import .*c\.json: messages\.0\.parts\.0\.type: .*\n$/);
    bad.messages[0]!.parts[0]!.type = 'text';
    bad.messages[0]!.sessionId = 'elsewhere';
    expect(await cli(['sessions', 'import', write('d.json', JSON.stringify(bad))], other)).toMatchObject({
      code: 2,
      stderr: `opencode: cannot import ${join(other, 'd.json')}: messages.0.sessionId: no session elsewhere in the file\n`,
    });
    expect(await cli(['sessions', 'list'], other)).toMatchObject({ stdout: 'No sessions in this project yet.\n' });
  }, 60_000);
});

describe('opencode sessions delete', () => {
  it('deletes a session with its sub-agent sessions; the id is then unknown', async () => {
    const other = project();
    writeFileSync(join(other, 'session.json'), (await cli(['sessions', 'export', agentId, '--format', 'json'])).stdout);
    await cli(['sessions', 'import', join(other, 'session.json')], other);
    expect(await cli(['sessions', 'delete', agentId.slice(0, 10)], other)).toMatchObject({
      code: 0,
      stdout: `deleted session ${agentId} "Non-interactive: how do I build?" (4 messages and 1 sub-agent session)\n`,
    });
    expect(await cli(['sessions', 'list', '--json'], other)).toMatchObject({ stdout: '[]\n' });
    expect(await cli(['sessions', 'delete', agentId], other)).toMatchObject({
      code: 2,
      stderr: `opencode: no session ${agentId}; \`opencode sessions list\` shows them\n`,
    });
  }, 60_000);
});
