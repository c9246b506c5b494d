/**
 * The runtime API: the README's example program run as written against the fake provider,
 * and a tool registered while a session runs offered from the next model call.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpencode } from '../../src/api/index.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';
import { cleanEnv } from '../support/cli.js';

const EXAMPLE = join(import.meta.dirname, '..', '..', 'examples', 'runtime-api.mjs');

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const project = () => mkdtempSync(join(tmpdir(), 'opencode-api-'));

function toolResultsSent(f: FakeProvider, n: number): [string, boolean][] {
  const last = (f.answered[n].messages as { content: unknown }[]).at(-1)!;
  return (last.content as { type: string; content: unknown; is_error?: boolean }[])
    .filter((b) => b.type === 'tool_result')
    .map((b) => [
      typeof b.content === 'string' ? b.content : (b.content as { text: string }[]).map((c) => c.text).join(''),
      b.is_error === true,
    ]);
}

const toolNames = (f: FakeProvider, n: number): string[] =>
  (f.answered[n].tools as { name: string }[]).map((t) => t.name);

describe('createOpencode', () => {
  it('runs examples/runtime-api.mjs as written: its tool is offered, called, and the answer printed', async () => {
    fake = await startFakeProvider([
      { toolCalls: [{ name: 'deploy_status', input: { service: 'checkout' } }] },
      { text: 'Checkout is healthy.' },
    ]);
    const env = cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.anthropicBaseURL });
    const child = spawn(process.execPath, [EXAMPLE], { cwd: project(), env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect({ code, stdout, stderr }).toEqual({
      code: 0,
      stdout: 'Checkout is healthy.\n',
      stderr: '[tool] deploy_status\n',
    });
    expect(fake.answered[0].messages[0].content[0].text).toBe('Is the checkout deploy healthy?');
    expect(toolResultsSent(fake, 1)).toEqual([
      ['checkout: deployed 12 minutes ago by the release pipeline, healthy', false],
    ]);
  });

  it('a tool registered while a session runs is offered from the next model call; unregister removes it', async () => {
    fake = await startFakeProvider([
      { toolCalls: [{ name: 'ls', input: {} }] },
      { toolCalls: [{ name: 'ticket_count', input: { queue: 'ops' } }] },
      { text: 'Three tickets.' },
    ]);
    const env = cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.anthropicBaseURL });
    const opencode = await createOpencode({ directory: project(), env });
    try {
      opencode.events.on('tool.started', ({ name }) => {
        if (name !== 'ls') return;
        opencode.tools.register({
          name: 'ticket_count',
          description: 'Open tickets in a queue.',
          args: {
            type: 'object',
            properties: { queue: { type: 'string', description: 'queue name' } },
            required: ['queue'],
          },
          execute: async (args) => `${String(args.queue)}: 3 open`,
        });
      });
      const result = await opencode.run('s1', 'how many tickets?');
      expect(result.text).toBe('Three tickets.');
      expect(toolNames(fake, 0)).not.toContain('ticket_count');
      expect(toolNames(fake, 1)).toContain('ticket_count');
      expect(toolResultsSent(fake, 2)).toEqual([['ops: 3 open', false]]);
      opencode.tools.unregister('ticket_count');
      expect(opencode.tools.names()).not.toContain('ticket_count');
      expect(() =>
        opencode.tools.register({ name: 'bad name', description: '', args: {}, execute: async () => '' }),
      ).toThrow(
        'cannot register the tool bad name: tools.bad name: a name may hold only letters, digits, _ and - (at most 64); tools.bad name.description: missing',
      );
    } finally {
      await opencode.close();
    }
  });
});
