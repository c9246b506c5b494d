/**
 * A session killed (-9) mid-tool and resumed by new `opencode -p --continue` processes sends, at every
 * request, exactly the history stored in the project's SQLite file at that moment (the
 * request bodies are encoded incrementally; in-process cases: agent-encoder-break.test.ts).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { historyForProvider } from '../../src/agent/history.js';
import { openDatabase } from '../../src/db/index.js';
import { finishPart } from '../../src/message.js';
import { toAnthropicMessages } from '../../src/provider/anthropic-request.js';
import { catalogModel, DEFAULT_MODELS } from '../../src/provider/index.js';
import { toOpenAIMessages } from '../../src/provider/openai-request.js';
import { cleanEnv, runCli } from '../support/cli.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { firstDifference, SUMMARIZER_PROMPT, systemOf, TITLE_PROMPT } from '../support/request-witness.js';

let opened: FakeProvider | undefined;
afterEach(async () => {
  await opened?.close();
  opened = undefined;
});

describe.each(['anthropic', 'openai'] as const)('%s: a session resumed by new processes after a kill -9', (api) => {
  /**
   * The processes' requests can only be compared with what is stored: for each one, the history part of
   * the body (`"messages":[…]`) must be, byte for byte, the history stored in the project's SQLite file
   * at that moment as the request builder makes it (toAnthropicMessages / toOpenAIMessages), the
   * reply being streamed left out.
   */
  it('sends exactly the stored history at every request of every process', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-encoder-kill-'));
    writeFileSync(join(dir, 'README.md'), '# p\n');
    const model = catalogModel(DEFAULT_MODELS[api].coder)!;
    const problems: string[] = [];
    let compared = 0;
    const fake = await startFakeProvider([], {
      sideTurn: (body) => {
        if (systemOf(api, body) === TITLE_PROMPT || systemOf(api, body).startsWith(SUMMARIZER_PROMPT)) return undefined;
        const text = fake.requests.at(-1)!.text;
        const db = openDatabase(join(dir, '.opencode'));
        try {
          const expected: string[] = [];
          for (const session of db.sessions.listAll()) {
            const messages = db.messages.list(session.id);
            const last = messages.at(-1);
            if (last?.role !== 'assistant' || finishPart(last)) continue;
            const history = historyForProvider(messages.slice(0, -1), session.summaryMessageId);
            const system = systemOf(api, body);
            const sent =
              api === 'anthropic'
                ? toAnthropicMessages(history, model)
                : [
                    ...(system ? [{ role: 'system', content: system }] : []),
                    ...toOpenAIMessages(history, model.supportsImages),
                  ];
            expected.push(`"messages":${JSON.stringify(sent)},`);
          }
          if (expected.length === 0) problems.push(`request ${fake.requests.length}: no session streaming a reply`);
          else if (!expected.some((e) => text.includes(e))) {
            const at = text.indexOf('"messages":');
            problems.push(`request ${fake.requests.length}: ${firstDifference(text.slice(at), expected[0]!)}`);
          }
          compared++;
        } finally {
          db.close();
        }
        return undefined;
      },
    });
    opened = fake;
    const env = cleanEnv(
      api === 'anthropic'
        ? { ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.anthropicBaseURL }
        : { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fake.openaiBaseURL },
    );
    fake.push({
      text: 'Writing, then sleeping',
      toolCalls: [
        { name: 'write', input: { file_path: join(dir, 'marker.txt'), content: 'written\n' } },
        { name: 'bash', input: { command: 'sleep 60' } },
      ],
    });
    let pid = 0;
    const run = runCli(['-p', 'sleep a while', '-q'], { cwd: dir, env, onSpawn: (p) => (pid = p) });
    // kill -9 once the write's result is stored (the sleep runs)
    for (let i = 0; i < 400; i++) {
      await new Promise((r) => setTimeout(r, 50));
      if (fake.answered.length === 0) continue;
      const db = openDatabase(join(dir, '.opencode'));
      const session = db.sessions.list()[0];
      const stored =
        session !== undefined &&
        db.messages.list(session.id).some((m) => m.parts.some((p) => p.type === 'tool_result'));
      db.close();
      if (stored) break;
    }
    process.kill(pid, 'SIGKILL');
    expect((await run).signal).toBe('SIGKILL');

    fake.push({ toolCalls: [{ name: 'ls', input: { path: dir } }] }, { text: 'Picking up → done.' });
    const second = await runCli(['-p', 'continue', '--continue', '-q'], { cwd: dir, env });
    expect(second.stdout.trim()).toBe('Picking up → done.');
    fake.push({ text: 'Still here.' });
    const third = await runCli(['-p', 'and now?', '--continue', '-q'], { cwd: dir, env });
    expect(third.stdout.trim()).toBe('Still here.');

    expect(fake.requests.filter((r) => r.rejected).map((r) => r.rejected)).toEqual([]);
    expect(problems).toEqual([]);
    expect(compared).toBe(4);
    const last = fake.requests.at(-1)!.text;
    expect(last).toContain('Tool execution interrupted: opencode stopped before this call finished');
    expect(last).toContain('File successfully written');
  }, 60_000);
});
