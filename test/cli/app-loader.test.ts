/**
 * The app's modules load after the TUI's first frame in slices (src/cli/app-loader.ts):
 * input that arrives during a slice is handled, and its render run, before the next slice starts
 * (yieldToInput, src/tui/input/yield-to-input.ts; the code grammars load the same way).
 * Real sockets on the loopback: the "key" is bytes the kernel holds while the slice runs.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { APP_LOAD_STEPS, loadAppInSlices } from '../../src/cli/app-loader.js';
import { yieldToInput } from '../../src/tui/input/yield-to-input.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** A connected socket pair on the loopback: `writer` → `reader`. */
async function socketPair(): Promise<{ reader: Socket; writer: Socket }> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const accepted = new Promise<Socket>((resolve) => server.once('connection', resolve));
  const writer = connect(port, '127.0.0.1');
  await new Promise((resolve) => writer.once('connect', resolve));
  const reader = await accepted;
  cleanups.push(() => {
    writer.destroy();
    reader.destroy();
    server.close();
  });
  return { reader, writer };
}

/** Keeps the thread busy for `ms` (a slice of module evaluation). */
function busyFor(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // the slice's work
  }
}

describe('loading the app in slices', () => {
  it('a key read during a slice is rendered before the next slice starts', async () => {
    const { reader, writer } = await socketPair();
    const order: string[] = [];
    // as Ink and React do: the read's handler queues the render as an immediate (React's scheduler on Node)
    reader.on('data', (data) => {
      order.push(`read ${String(data)}`);
      setImmediate(() => order.push(`render ${String(data)}`));
    });
    // the key is typed while a slice runs: it waits in the kernel until the slice ends
    writer.write('x');
    busyFor(30);
    await yieldToInput();
    order.push('next slice');
    expect(order).toEqual(['read x', 'render x', 'next slice']);
  });

  it('also when the slice ran in an immediate (as every slice after the first does)', async () => {
    const { reader, writer } = await socketPair();
    const order: string[] = [];
    reader.on('data', (data) => {
      order.push(`read ${String(data)}`);
      setImmediate(() => order.push(`render ${String(data)}`));
    });
    await new Promise<void>((resolve) =>
      setImmediate(() => {
        writer.write('y');
        busyFor(30);
        resolve();
      }),
    );
    await yieldToInput();
    order.push('next slice');
    expect(order).toEqual(['read y', 'render y', 'next slice']);
  });

  it('each step imports its part of the app, and the last gives createApp', async () => {
    for (const { step } of APP_LOAD_STEPS) await expect(step()).resolves.toBeTruthy();
    const createApp = await loadAppInSlices();
    expect(typeof createApp).toBe('function');
    expect(createApp.name).toBe('createApp');
  });
});
