/**
 * The fake provider serves another process that only knows its URL (as the end-to-end tests run
 * `bin/opencode -p`), the base-URL env vars reach the SDKs, and the SDKs stay out of the static import
 * graph so `opencode --version` does not load them.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeProvider, type FakeProvider } from '../support/fake-provider.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const run = promisify(execFile);

let fake: FakeProvider | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/** A child that resolves the default model from its environment and prints the streamed text. */
const CHILD = `
import { createProvider, defaultModels, resolveModel } from './src/provider/index.ts';
const settings = { providers: {}, env: process.env };
const model = await resolveModel((await defaultModels(settings)).coder, settings);
const provider = createProvider(model, settings, { maxRetries: 0 });
for await (const e of provider.stream({ systemPrompt: 's', messages: [{ id: 'u', sessionId: 's', role: 'user', parts: [{ type: 'text', text: 'hi' }], seq: 1, createdAt: 0, updatedAt: 0 }], tools: [], maxTokens: 100 })) {
  if (e.type === 'complete') process.stdout.write(model.id + ': ' + e.response.content);
  if (e.type === 'error') { process.stderr.write(e.error.message); process.exit(1); }
}
`;

describe('fake provider from a child process', () => {
  it.each([
    ['ANTHROPIC', 'anthropic/claude-sonnet-5-5', '/v1/messages'],
    ['OPENAI', 'openai/gpt-4.1', '/v1/chat/completions'],
  ])('serves a child pointed at it with %s_BASE_URL', async (prefix, modelId, route) => {
    fake = await startFakeProvider([{ text: 'Hello from the fake.' }]);
    const baseURL = prefix === 'ANTHROPIC' ? fake.anthropicBaseURL : fake.openaiBaseURL;
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      [`${prefix}_API_KEY`]: 'test-key-123456',
      [`${prefix}_BASE_URL`]: baseURL,
    };
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', CHILD], {
      cwd: root,
      env,
      timeout: 20_000,
    });
    expect(stdout).toBe(`${modelId}: Hello from the fake.`);
    expect(fake.requests.map((r) => r.path)).toEqual([route]);
  });
});

describe('lazy SDK loading', () => {
  it('imports the SDKs only with import() or `import type` in src/provider', () => {
    const dir = path.join(root, 'src/provider');
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
      const source = readFileSync(path.join(dir, file), 'utf8');
      const staticImports = source.match(/^import\s+(?!type\b)[^;]*from\s+'(@anthropic-ai\/sdk|openai)[^']*';/gm) ?? [];
      expect(staticImports, file).toEqual([]);
    }
  });
});
