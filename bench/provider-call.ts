/**
 * One provider call, taken apart: the main thread's on-CPU time per call of the Anthropic
 * provider and of its layers, against the loopback fake in a child process, for the request of the
 * agent-loop bench's last step (the coder's 11 tool schemas, a 2 KB system prompt, 101 history messages:
 * ~33 KB of JSON), each reply a streamed `view` tool call.
 *
 * Variants, run interleaved (round-robin) so load hits them alike:
 * - `provider`: `AnthropicProvider.stream` — request build, SDK, our fetch (node-fetch.ts), event handling;
 * - `SDK + node-fetch`: `messages.create` with the params built once, its events iterated (OpenTelemetry spans
 *   off, as the provider has them; and on, the SDK's default);
 * - `SDK post, pre-encoded body`: the SDK's generic `client.post('/v1/messages', {stream: true})` with the body
 *   as bytes encoded once (no JSON.stringify or UTF-8 encoding per call);
 * - `params one-byte`: `messages.create` with every non-Latin-1 character of the params replaced: V8's JSON
 *   and UTF-8 paths for one-byte strings (4 characters of our prompt and tool texts make the whole body two-byte);
 * - `SDK create, raw response body read`: the response body read as bytes (`asResponse()`), without the SDK's SSE decoding;
 * - `node-fetch alone`: `nodeFetch()` called as the SDK calls it (a string URL, the SDK's headers as a new `Headers`,
 *   the body as bytes, an `AbortController`'s signal), the body iterated: our transport without the SDK;
 * - `SDK + undici + stall wrapper`: the same over Node's fetch wrapped by stall.ts (the transport before node-fetch.ts);
 * - `SDK + undici`: over Node's fetch alone;
 * - `node:http`: the same JSON body POSTed over a keep-alive agent, the reply read to its end: the transport floor;
 *   once as a string with a few headers, once as `node-fetch alone` sends it (bytes, the SDK's headers): its floor;
 * - `request build`: `toAnthropicParams` + `JSON.stringify`, no network.
 *
 * `tsx bench/provider-call.ts [calls per variant per round] [rounds] [variant name part[|part…]]`.
 * `BENCH_NODE_FETCH_BASELINE=<file>` adds the node-fetch variants again over that module (e.g. the
 * committed node-fetch.ts, node-fetch-body.ts and stall.ts copied to a scratch folder with `git show`),
 * marked `(baseline)`: an old and a new transport compared in the same rounds.
 */
import http from 'node:http';
import { resolve as resolvePath } from 'node:path';
import { performance } from 'node:perf_hooks';
import Anthropic from '@anthropic-ai/sdk';
import type { Message } from '../src/message.js';
import { AnthropicProvider, toAnthropicParams } from '../src/provider/anthropic.js';
import { catalogModel } from '../src/provider/index.js';
import { nodeFetch } from '../src/provider/node-fetch.js';
import { DEFAULT_STALL_TIMEOUTS, stallGuardedFetch } from '../src/provider/stall.js';
import type { ProviderRequest } from '../src/provider/types.js';
import { builtinTools } from '../src/tools/index.js';
import { mainThreadCpuClock } from './agent-loop.js';
import { startChildFake, type ChildFake } from './fake-provider-client.js';
import { median } from './lib.js';

const STEPS = 50;
const clock = mainThreadCpuClock() ?? (() => performance.eventLoopUtilization().active);

function history(): Message[] {
  const file = '/tmp/project/small.ts';
  const content =
    '     1\texport const answer = 42;\n     2\texport function double(x: number) {\n     3\t  return x * 2;\n     4\t}\n';
  const at = { sessionId: 's', createdAt: 0, updatedAt: 0 };
  const messages: Message[] = [
    {
      ...at,
      id: 'u',
      seq: 0,
      role: 'user',
      parts: [{ type: 'text', text: 'What does small.ts export? Look at it many times.' }],
    },
  ];
  for (let i = 0; i < STEPS; i++) {
    const id = `toolu_${i}`;
    messages.push({
      ...at,
      id: `a${i}`,
      seq: 2 * i + 1,
      role: 'assistant',
      model: 'anthropic/claude-haiku-4-5',
      parts: [
        { type: 'tool_call', id, name: 'view', input: JSON.stringify({ file_path: file }), finished: true },
        { type: 'finish', reason: 'tool_use', time: 0 },
      ],
    });
    messages.push({
      ...at,
      id: `t${i}`,
      seq: 2 * i + 2,
      role: 'tool',
      parts: [
        { type: 'tool_result', toolCallId: id, name: 'view', content: `<file>\n${content}</file>`, isError: false },
      ],
    });
  }
  return messages;
}

type Variant = { name: string; call: () => Promise<void> };

async function main(): Promise<void> {
  const perRound = Number(process.argv[2] ?? 40);
  const rounds = Number(process.argv[3] ?? 5);
  const fake: ChildFake = await startChildFake();
  const model = catalogModel('anthropic/claude-haiku-4-5')!;
  const request: ProviderRequest = {
    systemPrompt: 'You are opencode, an interactive CLI tool that helps users with software engineering tasks. '.repeat(
      22,
    ),
    messages: history(),
    tools: builtinTools().schemas(),
    maxTokens: 1000,
  };
  const params = toAnthropicParams(model, request);
  const body = JSON.stringify(params);
  const connection = { apiKey: 'sk-ant-bench', baseURL: fake.url };
  const provider = new AnthropicProvider(model, connection, { maxRetries: 0 });
  const client = (fetch: typeof globalThis.fetch, openTelemetry = false) =>
    new Anthropic({
      apiKey: connection.apiKey,
      baseURL: fake.url,
      maxRetries: 0,
      fetch,
      logLevel: 'off',
      ...(openTelemetry ? {} : { openTelemetry: false }),
    });
  const sdkCall = (sdk: Anthropic) => async () => {
    const { data } = await sdk.messages.create(params).withResponse();
    for await (const _event of data);
  };
  // the SDK's request as it reaches its fetch (URL, headers), taken from one real call
  const seen: { url: string; headers: [string, string][] }[] = [];
  const recorder = nodeFetch();
  await fake.push([{ text: { chunk: 'ok', times: 1 } }]);
  await client(((url: string, init: RequestInit) => {
    seen.push({ url, headers: [...(init.headers as Headers)] });
    return recorder(url, init);
  }) as typeof fetch).messages.create(params);
  const sdkRequest = seen[0]!;
  const baselinePath = process.env.BENCH_NODE_FETCH_BASELINE;
  const baseline = baselinePath
    ? ((await import(resolvePath(baselinePath))) as { nodeFetch: typeof nodeFetch }).nodeFetch
    : undefined;
  const agent = new http.Agent({ keepAlive: true });
  const { host, port } = new URL(fake.url);
  const variants: Variant[] = [
    {
      name: 'provider (build + SDK + node-fetch + events)',
      call: async () => {
        for await (const event of provider.stream(request)) if (event.type === 'error') throw event.error;
      },
    },
    { name: 'SDK + node-fetch', call: sdkCall(client(nodeFetch())) },
    {
      name: 'SDK post, pre-encoded body + node-fetch',
      call: (() => {
        const sdk = client(nodeFetch());
        const bytes = Buffer.from(body);
        return async () => {
          const data = (await sdk.post('/v1/messages', {
            body: bytes,
            stream: true,
            headers: { 'content-type': 'application/json' },
          })) as AsyncIterable<unknown>;
          for await (const _event of data);
        };
      })(),
    },
    {
      name: 'SDK + node-fetch, params one-byte',
      call: (() => {
        const sdk = client(nodeFetch());
        const p1 = JSON.parse(body.replace(/[^\x00-\xff]/g, '-')) as typeof params;
        return async () => {
          const { data } = await sdk.messages.create(p1).withResponse();
          for await (const _event of data);
        };
      })(),
    },
    {
      name: 'SDK create, raw response body read',
      call: (() => {
        const sdk = client(nodeFetch());
        return async () => {
          const res = await sdk.messages.create(params).asResponse();
          for await (const _chunk of res.body as unknown as AsyncIterable<Uint8Array>);
        };
      })(),
    },
    ...[nodeFetch, baseline].flatMap((ours, i) => {
      if (!ours) return [];
      const mark = i === 0 ? '' : ' (baseline)';
      const bytes = Buffer.from(body);
      const post = () => {
        const sdk = client(ours());
        return async () => {
          const data = (await sdk.post('/v1/messages', {
            body: bytes,
            stream: true,
            headers: { 'content-type': 'application/json' },
          })) as AsyncIterable<unknown>;
          for await (const _event of data);
        };
      };
      const alone = () => {
        const fetch = ours();
        return async () => {
          const controller = new AbortController();
          const res = await fetch(sdkRequest.url, {
            method: 'POST',
            headers: new Headers(sdkRequest.headers),
            body: bytes,
            signal: controller.signal,
          });
          for await (const _chunk of res.body as unknown as AsyncIterable<Uint8Array>);
        };
      };
      return [
        ...(i === 0
          ? []
          : [
              { name: `SDK + node-fetch${mark}`, call: sdkCall(client(ours())) },
              { name: `SDK post, pre-encoded body + node-fetch${mark}`, call: post() },
            ]),
        { name: `node-fetch alone, bytes body, SDK's headers, body iterated${mark}`, call: alone() },
      ];
    }),
    { name: 'SDK (OpenTelemetry spans on) + node-fetch', call: sdkCall(client(nodeFetch(), true)) },
    { name: 'SDK + undici + stall wrapper', call: sdkCall(client(stallGuardedFetch(DEFAULT_STALL_TIMEOUTS))) },
    { name: 'SDK + undici', call: sdkCall(client(globalThis.fetch)) },
    {
      name: 'node:http, body read, no parsing',
      call: () =>
        new Promise<void>((resolve, reject) => {
          const req = http.request(
            {
              host: host.split(':')[0],
              port,
              path: '/v1/messages',
              method: 'POST',
              agent,
              headers: {
                'content-type': 'application/json',
                'content-length': Buffer.byteLength(body),
                'x-api-key': connection.apiKey,
                'anthropic-version': '2023-06-01',
              },
            },
            (res) => {
              res.on('data', () => {});
              res.on('end', resolve);
            },
          );
          req.on('error', reject);
          req.end(body);
        }),
    },
    {
      name: "node:http, bytes body, SDK's headers, body read",
      call: (() => {
        const bytes = Buffer.from(body);
        const { hostname, port: sdkPort, pathname, search } = new URL(sdkRequest.url);
        return () =>
          new Promise<void>((resolve, reject) => {
            const headers: Record<string, string> = Object.fromEntries(sdkRequest.headers);
            headers['content-length'] = String(bytes.length);
            const req = http.request(
              { hostname, port: sdkPort, path: pathname + search, method: 'POST', agent, headers },
              (res) => {
                res.on('data', () => {});
                res.on('end', resolve);
              },
            );
            req.on('error', reject);
            req.end(bytes);
          });
      })(),
    },
    {
      name: 'request build (params + JSON.stringify)',
      call: async () => {
        JSON.stringify(toAnthropicParams(model, request));
      },
    },
  ];
  // a third argument keeps the variants whose name contains it, or one of its `|`-separated parts (e.g. to profile one)
  const keep = process.argv[4]?.split('|');
  if (keep) variants.splice(0, variants.length, ...variants.filter((v) => keep.some((part) => v.name.includes(part))));
  const turn = { toolCalls: [{ name: 'view', input: { file_path: '/tmp/project/small.ts' } }] };
  const results = new Map<string, number[]>(variants.map((v) => [v.name, []]));
  for (let round = 0; round <= rounds; round++) {
    // every other round in reverse order, so no variant always runs right after the same one
    for (const variant of round % 2 ? [...variants].reverse() : variants) {
      await fake.push(Array.from({ length: perRound }, () => turn));
      const before = clock();
      for (let i = 0; i < perRound; i++) await variant.call();
      const perCall = (clock() - before) / perRound;
      // round 0 warms the JIT up and is not counted
      if (round > 0) results.get(variant.name)!.push(perCall);
      // drain turns a variant without network did not take
      if (variant.name.startsWith('request build') && variants.length > 1)
        for (let i = 0; i < perRound; i++) await sdkCall(client(nodeFetch()))();
    }
  }
  const { rejected } = await fake.stats();
  fake.close();
  if (rejected.length) throw new Error(`the fake rejected a request: ${rejected[0]}`);
  console.log(
    `main-thread CPU per call, median of ${rounds} rounds × ${perRound} calls (request body ${(body.length / 1024).toFixed(0)} KB):`,
  );
  console.log('median     min  variant');
  for (const [name, values] of results)
    console.log(
      `${median(values).toFixed(2).padStart(6)} ${Math.min(...values)
        .toFixed(2)
        .padStart(7)}  ${name}`,
    );
  // a baseline's counterpart against it, round by round (the rounds' load hits both alike)
  for (const [name, old] of results) {
    const current = name.endsWith(' (baseline)') ? results.get(name.slice(0, -' (baseline)'.length)) : undefined;
    if (!current) continue;
    const ratios = current.map((value, i) => value / old[i]!);
    console.log(
      `current ÷ baseline, median of the rounds' ratios ${median(ratios).toFixed(2)} (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}): ${name.slice(0, -' (baseline)'.length)}`,
    );
  }
}

await main();
