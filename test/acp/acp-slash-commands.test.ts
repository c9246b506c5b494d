/**
 * Our slash commands in the editor: advertised after session/new (built-in and the project's custom
 * commands, with the input hint of their placeholders), and run when a prompt starts with one.
 */
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { INIT_PROMPT } from '../../src/agent/init-prompt.js';
import { acpPerTest } from '../support/acp-per-test.js';
import { cleanEnv } from '../support/cli.js';
import type { FakeProvider } from '../support/fake-provider.js';
import { titleTurn } from './acp-client.js';

const acp = acpPerTest();

/** The last text block of answered request `n` (after a compaction the summary is a block before it). */
function lastUserText(f: FakeProvider, n: number): string | undefined {
  const last = (f.answered[n].messages as { role: string; content: { type: string; text?: string }[] }[]).at(-1)!;
  return last.content.filter((b) => b.type === 'text').at(-1)?.text;
}

describe('opencode acp: slash commands', () => {
  it('advertises init, compact and the custom commands, and runs each', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-acp-cmd-'));
    mkdirSync(join(dir, '.opencode', 'commands'), { recursive: true });
    writeFileSync(join(dir, '.opencode', 'commands', 'review.md'), 'Review $FILE and list its problems.');
    const fake = await acp.startFake(
      [
        { text: 'Looks fine.' },
        { text: 'Summary: src/a.ts was reviewed and looks fine.' },
        { text: 'Wrote OpenCode.md.' },
        { text: 'In /usr/bin.' },
      ],
      { sideTurn: titleTurn('Review') },
    );
    const agent = acp.startAgent({
      cwd: dir,
      env: cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.anthropicBaseURL }),
    });
    await agent.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
    const { sessionId } = await agent.agent.request('session/new', { cwd: dir, mcpServers: [] });
    const advertised = await agent.waitForUpdate((u) => u.sessionUpdate === 'available_commands_update');
    expect(advertised).toEqual({
      sessionUpdate: 'available_commands_update',
      availableCommands: [
        {
          name: 'init',
          description: 'Initialize Project: write or improve OpenCode.md, the notes for coding agents in this project',
        },
        {
          name: 'compact',
          description: 'Compact Session: summarise the conversation so far, so later requests send the summary',
        },
        {
          name: 'project:review',
          description: `from ${join(dir, '.opencode', 'commands', 'review.md')}`,
          input: { hint: 'FILE' },
        },
      ],
    });

    // a custom command: its placeholder is the text after it
    expect(
      await agent.agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: '/project:review src/a.ts' }],
      }),
    ).toEqual({ stopReason: 'end_turn' });
    expect(lastUserText(fake, 0)).toBe('Review src/a.ts and list its problems.');
    await expect(
      agent.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: '/project:review' }] }),
    ).rejects.toMatchObject({
      code: -32602,
      message: 'Invalid params: /project:review needs $FILE: type /project:review FILE',
    });

    // /compact: the summarizer's summary streams like a reply (it is a message of the session), then a note
    const from = agent.updates.length;
    expect(
      await agent.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: '/compact' }] }),
    ).toEqual({ stopReason: 'end_turn' });
    expect(
      agent.updates
        .slice(from)
        .map((n) => n.update)
        .flatMap((u) =>
          u.sessionUpdate === 'agent_message_chunk' && u.content.type === 'text' ? [u.content.text] : [],
        ),
    ).toEqual([
      'Summary: src/a.ts was reviewed and looks fine.',
      'Session compacted: later requests send the summary and what follows it.',
    ]);
    expect(JSON.stringify(fake.answered[1].messages)).toContain('Review src/a.ts and list its problems.');

    // /init sends the Initialize Project prompt and records that the project was initialised
    expect(
      await agent.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: '/init' }] }),
    ).toEqual({ stopReason: 'end_turn' });
    expect(lastUserText(fake, 2)).toBe(INIT_PROMPT);
    expect(existsSync(join(dir, '.opencode', 'init'))).toBe(true);

    // a slash that names no command is a plain prompt
    expect(
      await agent.agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: '/usr/bin/env is where?' }],
      }),
    ).toEqual({ stopReason: 'end_turn' });
    expect(lastUserText(fake, 3)).toBe('/usr/bin/env is where?');
  });
});
