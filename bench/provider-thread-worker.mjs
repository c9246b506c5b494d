/**
 * The worker of bench/provider-thread.ts: the provider's own Anthropic client in a worker thread. Each
 * message `{ head, body }` is one `messages.create` with the body as bytes; the reply's events are posted
 * back in batches (one per turn of the worker's event loop), then `{ done: true }`. Loads the sources
 * through tsx's API (a worker does not inherit the parent's loader).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

const { createProvider, catalogModel } = await tsImport('../src/provider/index.ts', import.meta.url);
const provider = createProvider(catalogModel('anthropic/claude-haiku-4-5'), {
  providers: {},
  env: { ANTHROPIC_API_KEY: 'sk-ant-bench', ANTHROPIC_BASE_URL: workerData.url },
});
const client = await provider.sdk();
parentPort.on('message', async ({ head, body }) => {
  const stream = await client.messages.create(head, { body, headers: { 'content-type': 'application/json' } });
  let batch = [];
  const post = () => {
    parentPort.postMessage({ events: batch });
    batch = [];
  };
  for await (const event of stream) if (batch.push(event) === 1) setImmediate(post);
  setImmediate(() => parentPort.postMessage({ done: true }));
});
parentPort.postMessage({ ready: true });
