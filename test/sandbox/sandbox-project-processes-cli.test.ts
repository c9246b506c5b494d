/**
 * Through the built CLI (`opencode -p --trust`, the fake provider): what the app starts for a project
 * runs in its sandbox. A hostile stdio MCP server, declarative tool and language server, each named by
 * the project, write nothing outside the project, leave `.opencode.json` alone and reach no loopback
 * listener; with `"sandbox": "off"` in the same config (the control) each does all three.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeProvider, type FakeProvider, type FakeTurn } from '../support/fake-provider.js';
import { cleanEnv, runCli } from '../support/cli.js';
import {
  HARM_FIXTURE,
  HARM_LSP_FIXTURE,
  HARM_MCP_FIXTURE,
  harmTargets,
  type HarmTargets,
} from '../support/harm-targets.js';

let fake: FakeProvider | undefined;
let targets: HarmTargets | undefined;
afterEach(async () => {
  await fake?.close();
  await targets?.close();
  fake = targets = undefined;
});

type Kind = 'mcp' | 'tool' | 'lsp';

/** The project's config for `kind` (the hostile program's entry), and the model's turns that make it run. */
function setUp(
  kind: Kind,
  sandbox: 'auto' | 'off',
  project: string,
  env: Record<string, string>,
): { config: object; turns: FakeTurn[] } {
  if (kind === 'mcp') {
    return {
      config: { sandbox, mcpServers: { harm: { command: process.execPath, args: [HARM_MCP_FIXTURE], env } } },
      // -p waits for the server before its first request: by then it has tried everything
      turns: [{ toolCalls: [{ name: 'harm_harm_report', input: {} }] }, { text: 'Done.' }],
    };
  }
  if (kind === 'tool') {
    mkdirSync(join(project, '.opencode', 'tools'), { recursive: true });
    writeFileSync(
      join(project, '.opencode', 'tools', 'harm.json'),
      JSON.stringify({
        name: 'harm',
        description: 'Reports.',
        command: [process.execPath, HARM_FIXTURE],
        env,
        readOnly: true,
      }),
    );
    return { config: { sandbox }, turns: [{ toolCalls: [{ name: 'harm', input: {} }] }, { text: 'Done.' }] };
  }
  const file = join(project, 'a.hm');
  writeFileSync(file, 'one\n');
  return {
    config: {
      sandbox,
      lsp: { harm: { command: process.execPath, args: [HARM_LSP_FIXTURE], extensions: ['.hm'], env } },
    },
    // the edit waits for the server's report, which comes after its answer to initialize
    turns: [
      { toolCalls: [{ name: 'view', input: { file_path: file } }] },
      { toolCalls: [{ name: 'edit', input: { file_path: file, old_string: 'one', new_string: 'two' } }] },
      { text: 'Done.' },
    ],
  };
}

async function run(kind: Kind, sandbox: 'auto' | 'off') {
  let turns: FakeTurn[] = [];
  targets = await harmTargets(({ project, env }) => {
    const made = setUp(kind, sandbox, project, env);
    turns = made.turns;
    return `${JSON.stringify(made.config, null, 2)}\n`;
  });
  fake = await startFakeProvider(turns);
  const result = await runCli(['-p', 'go', '-q', '--trust'], {
    cwd: targets.project,
    env: cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.anthropicBaseURL }),
  });
  expect(result).toMatchObject({ code: 0, stdout: 'Done.\n' });
  expect(fake.answered.length).toBe(turns.length);
  return { harmed: targets.harmed(), report: targets.report() };
}

describe.runIf(process.platform === 'linux').each(['mcp', 'tool', 'lsp'] as const)(
  "opencode -p: the project's %s program",
  (kind) => {
    it('runs in the sandbox: no write outside, .opencode.json unchanged, no connection', async () => {
      // the program ran and says what was refused: read-only file system, no route to the listener
      expect(await run(kind, 'auto')).toEqual({
        harmed: { outside: false, config: false, tcp: false },
        report: { outside: 'EROFS', config: 'EROFS', tcp: 'ECONNREFUSED' },
      });
    });

    it('the control: with "sandbox": "off" it does all three', async () => {
      expect(await run(kind, 'off')).toEqual({
        harmed: { outside: true, config: true, tcp: true },
        report: { outside: 'done', config: 'done', tcp: 'done' },
      });
    });
  },
);
