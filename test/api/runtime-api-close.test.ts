/**
 * The runtime API's close() while a run is inside a tool whose execute never settles (and ignores the
 * abort signal): close() ends the run and returns, and the run resolves as cancelled.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpencode } from '../../src/api/index.js';
import { cleanEnv } from '../support/cli.js';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe('createOpencode close()', () => {
  it('returns while a tool never settles, and the run ends cancelled', { timeout: 60_000 }, async () => {
    fake = await startFakeProvider([{ toolCalls: [{ name: 'stuck', input: {} }] }, { text: 'never asked' }]);
    const env = cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.anthropicBaseURL });
    const opencode = await createOpencode({ directory: mkdtempSync(join(tmpdir(), 'opencode-api-close-')), env });
    opencode.tools.register({
      name: 'stuck',
      description: 'Never answers.',
      args: {},
      execute: () => new Promise<string>(() => {}),
    });
    const started = new Promise<void>((resolve) => opencode.events.on('tool.started', () => resolve()));
    const run = opencode.run('ses_close', 'use stuck');
    await started;
    await opencode.close();
    expect((await run).reason).toBe('canceled');
    expect(fake.requests.length).toBe(1);
  });
});
