/**
 * Live progress of any tool, not only bash's, shows the keys we hold as `[redacted]`:
 * a custom or plugin tool reporting progress through its context must not hand the keys to the UI or
 * the plugins' `tool.progress` hook. Real agent, real SQLite, the loopback fake provider; the
 * stored result is checked too.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Tool } from '../../src/tools/tool.js';
import { forgetSecrets, REDACTED, rememberSecrets } from '../../src/tools/redact.js';
import { agentHarness, toolResultsOf, type Harness } from '../support/agent-harness.js';

const KEY = 'sk-test-progress-7Hq2Zk9Lm4Pw8Rt3';

const chatty: Tool = {
  name: 'chatty',
  description: 'Reports progress, then returns.',
  inputSchema: { type: 'object', properties: {} },
  readOnly: true,
  async run(_input, ctx) {
    ctx.onProgress?.(`connecting with ${KEY}…`);
    ctx.onProgress?.(`…${KEY.slice(3)}`);
    return { output: `done with ${KEY}`, isError: false };
  },
};

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
  forgetSecrets();
});

describe('tool.progress', () => {
  it('hides the key, whole or cut, in every progress event and in the stored result', async () => {
    rememberSecrets([KEY]);
    h = await agentHarness([{ toolCalls: [{ id: 'c1', name: 'chatty', input: {} }] }, { text: 'ok' }], {
      tools: [chatty],
    });
    const shown: string[] = [];
    h.bus.on('tool.progress', (e) => shown.push(e.text));
    await h.agent.run(h.sessionId, 'go');
    expect(shown).toEqual([`connecting with ${REDACTED}…`, `…${REDACTED}`]);
    expect(toolResultsOf(h.db, h.sessionId)[0]!.content).toBe(`done with ${REDACTED}`);
  });
});
