/**
 * A loopback HTTP server that speaks the providers' real streaming wire formats:
 * Anthropic Messages SSE at `POST …/v1/messages` and OpenAI Chat Completions SSE at
 * `POST …/chat/completions`, plus `GET …/models` for local-model discovery.
 *
 * It replays a script: each request (of either API) takes the next {@link FakeTurn}. It records every
 * request in `requests`, and rejects with HTTP 400, in the real API's error shape, a request the real API
 * would reject (tool call without result, result without call, thinking block without signature, …: see
 * fake-provider-checks.ts); a rejected request does not take a turn.
 *
 * Use from the test process; a child process (`bin/opencode -p`) only needs the URL:
 * `ANTHROPIC_BASE_URL=<anthropicBaseURL>`, `OPENAI_BASE_URL=<openaiBaseURL>`, `LOCAL_ENDPOINT=<url>`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkAnthropicRequest, checkDeepSeekReasoning, checkOpenAIRequest } from './fake-provider-checks.js';
import { anthropicChunks, openaiChunks, type Chunk } from './fake-provider-wire.js';

export type { Chunk } from './fake-provider-wire.js';

/** A tool call the fake model makes. `input` as an object is sent as its JSON; as a string, byte for byte (it may be invalid JSON). */
export interface FakeToolCall {
  /** default `toolu_<request>_<i>` (Anthropic) or `call_<request>_<i>` (OpenAI) */
  id?: string;
  name: string;
  input: Record<string, unknown> | string;
}

/** Token counts the fake reports. Defaults: input 10, output 5, caches 0. */
export interface FakeUsage {
  input?: number;
  output?: number;
  cacheWrite?: number;
  cacheRead?: number;
  /** reasoning tokens reported outside `completion_tokens` (OpenAI API, as xAI does); counted in `total_tokens` */
  reasoningOutside?: number;
}

/** A block of an Anthropic reply, in order: text, or a server tool's block (`server_tool_use`, `web_search_tool_result`, …). */
export type FakeBlock = { text: string | string[] } | { server: { type: string; [key: string]: unknown } };

/**
 * One scripted answer. A reply streams `thinking` (Anthropic thinking block / OpenAI `reasoning_content`),
 * `text` (a string is split into word chunks; an array gives the chunks), then `toolCalls` (input JSON in
 * several partial chunks). Failures: `httpStatus` (with optional `headers`, e.g. `retry-after`, and `body`;
 * the default body is the API's error shape), `dropAfterChunks` (socket destroyed after n SSE events; 0 =
 * before any response), `streamError` (an error event after `streamErrorAfterChunks`, default 1, events),
 * `rawBody` (HTTP 200 with a body that is no event stream), `rawEvents` (exactly these SSE events).
 * Timing: `delayMs` before the response, `chunkDelayMs` between events, `stallAfterChunks` to hang.
 */
export interface FakeTurn {
  text?: string | string[];
  thinking?: { text: string; signature: string };
  /** an Anthropic `redacted_thinking` block's data */
  redactedThinking?: string;
  toolCalls?: FakeToolCall[];
  /**
   * Anthropic stop_reason; default `tool_use` with tool calls, else `end_turn` (OpenAI: mapped to
   * finish_reason, `refusal` to `content_filter`; any other value is sent as it is)
   */
  stopReason?: 'end_turn' | 'tool_use' | 'max_tokens' | 'stop_sequence' | 'refusal' | 'pause_turn' | (string & {});
  /** Anthropic `stop_details` on the message_delta (a refusal's `{type: "refusal", category, explanation}`) */
  stopDetails?: Record<string, unknown>;
  /** Anthropic: text and server tool blocks in this order, instead of `text` */
  blocks?: FakeBlock[];
  /** OpenAI: this finish_reason as it is, instead of the one mapped from `stopReason` */
  finishReason?: string;
  /** OpenAI: where the usage goes: `usage` (default), Groq's `x_groq.usage`, or `none` (no usage chunk) */
  usageShape?: 'usage' | 'x_groq' | 'none';
  usage?: FakeUsage;
  httpStatus?: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** message of the default error body */
  message?: string;
  dropAfterChunks?: number;
  streamError?: { type: string; message: string };
  streamErrorAfterChunks?: number;
  delayMs?: number;
  chunkDelayMs?: number;
  /** send this many events, then keep the connection open without sending more (until the client goes) */
  stallAfterChunks?: number;
  /**
   * answer HTTP 200 with this body instead of an event stream (a wrong base URL: a web page, a JSON
   * API); `contentType` null sends no content-type header; default `text/html; charset=utf-8`
   */
  rawBody?: { body: string; contentType?: string | null };
  /** stream exactly these SSE events (`text/event-stream`) instead of the scripted reply, e.g. unknown events */
  rawEvents?: Chunk[];
}

/** One request the fake received. */
export interface FakeRequest {
  api: 'anthropic' | 'openai' | 'models';
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** parsed JSON body (undefined for GET) */
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** the body as received, decoded as UTF-8 */
  text: string;
  /** index of the turn that answered it; undefined when rejected or not a completion */
  turn?: number;
  /** the 400 message when the fake rejected the request */
  rejected?: string;
  /** answered by {@link FakeProviderOptions.sideTurn}, outside the script (not in `answered`) */
  side?: true;
}

/** A listed model for `GET /v1/models`. */
export type FakeModel = string | { id: string; context_length?: number };

export interface FakeProviderOptions {
  /** models for `GET /v1/models`; default `['fake-model']` */
  models?: FakeModel[];
  /** listen on this port (default 0: any free port) */
  port?: number;
  /** answer used when the script is exhausted (default: HTTP 400 "script exhausted") */
  fallback?: FakeTurn;
  /**
   * Answers requests made beside the conversation, without taking a scripted turn: called with each
   * valid completion request's parsed body before the script; a returned turn answers it (the request
   * is recorded with `side: true` and left out of `answered`), `undefined` lets the script answer.
   * E.g. the TUI's background session-title request (system prompt `systemPrompt('title')`).
   */
  sideTurn?: (body: any) => FakeTurn | undefined; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** answer `GET /v1/models` with this HTTP status and an error body (a server that lists no models: 404) */
  modelsStatus?: number;
  /**
   * Check requests as DeepSeek's thinking mode does (api-docs.deepseek.com/guides/thinking_mode, "Tool
   * calls"): an assistant message with `tool_calls` and no `reasoning_content` is rejected with HTTP 400
   */
  requireReasoningContent?: boolean;
}

export interface FakeProvider {
  /** `http://127.0.0.1:<port>`; also the value for `LOCAL_ENDPOINT` */
  url: string;
  /** for the Anthropic SDK / `ANTHROPIC_BASE_URL` (the SDK appends `/v1/messages`): equals `url` */
  anthropicBaseURL: string;
  /** for the OpenAI SDK / `OPENAI_BASE_URL` (the SDK appends `/chat/completions`): `<url>/v1` */
  openaiBaseURL: string;
  /** every request received, in order */
  requests: FakeRequest[];
  /** bodies of the completion requests that were answered by a turn, in order */
  readonly answered: any[]; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** appends turns to the script */
  push(...turns: FakeTurn[]): void;
  /** turns not yet used */
  remaining(): number;
  /** stops listening and destroys open connections */
  close(): Promise<void>;
}

/** Starts the fake on 127.0.0.1. See the module comment and {@link FakeTurn}. */
export async function startFakeProvider(
  turns: FakeTurn[] = [],
  options: FakeProviderOptions = {},
): Promise<FakeProvider> {
  const script = [...turns];
  const requests: FakeRequest[] = [];
  let used = 0;
  let closed = false;
  const timers = new Set<NodeJS.Timeout>();
  const stalled = new Set<() => void>();
  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(() => {
        timers.delete(t);
        resolve();
      }, ms);
      timers.add(t);
    });

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void handle(req, res, Buffer.concat(chunks).toString('utf8')).catch((err) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `fake provider crashed: ${String(err)}` } }));
      });
    });
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse, raw: string): Promise<void> {
    const path = (req.url ?? '/').split('?')[0]!;
    const api =
      req.method === 'GET' && path.endsWith('/models')
        ? 'models'
        : req.method === 'POST' && path.endsWith('/v1/messages')
          ? 'anthropic'
          : req.method === 'POST' && path.endsWith('/chat/completions')
            ? 'openai'
            : undefined;
    if (!api) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `fake provider: no route ${req.method} ${path}` } }));
      return;
    }
    let body: unknown;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      body = raw;
    }
    const record: FakeRequest = { api, method: req.method!, path, headers: req.headers, body, text: raw };
    requests.push(record);
    if (api === 'models' && options.modelsStatus) {
      res.writeHead(options.modelsStatus, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `fake provider: models answered ${options.modelsStatus}` } }));
      return;
    }
    if (api === 'models') {
      const models = options.models ?? ['fake-model'];
      const data = models.map((m) => ({
        object: 'model',
        created: 0,
        owned_by: 'fake',
        ...(typeof m === 'string' ? { id: m } : m),
      }));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data }));
      return;
    }
    const problem =
      api === 'anthropic'
        ? checkAnthropicRequest(body)
        : (checkOpenAIRequest(body) ?? (options.requireReasoningContent ? checkDeepSeekReasoning(body) : undefined));
    if (problem) {
      record.rejected = problem;
      sendError(res, api, 400, problem);
      return;
    }
    const side = options.sideTurn?.(body);
    const turn = side ?? script.shift() ?? options.fallback;
    if (!turn) {
      record.rejected = 'script exhausted';
      sendError(res, api, 400, `fake provider: no scripted turn left for request #${requests.length}`);
      return;
    }
    // a side turn's ids are numbered from 100000 + the request's index, apart from the scripted turns'
    let n: number;
    if (side) {
      record.side = true;
      n = 100_000 + requests.length - 1;
    } else {
      n = record.turn = used++;
    }
    if (turn.delayMs) await wait(turn.delayMs);
    if (turn.httpStatus) {
      sendError(res, api, turn.httpStatus, turn.message, turn.headers, turn.body);
      return;
    }
    if (turn.dropAfterChunks === 0) {
      req.socket.destroy();
      return;
    }
    if (turn.rawBody) {
      const type = turn.rawBody.contentType === undefined ? 'text/html; charset=utf-8' : turn.rawBody.contentType;
      res.writeHead(200, type === null ? {} : { 'content-type': type });
      res.end(turn.rawBody.body);
      return;
    }
    const events: Chunk[] =
      turn.rawEvents ?? (api === 'anthropic' ? anthropicChunks(turn, n, body) : openaiChunks(turn, n, body));
    if (turn.streamError) {
      const at = Math.min(turn.streamErrorAfterChunks ?? 1, events.length);
      const error =
        api === 'anthropic'
          ? { event: 'error', data: { type: 'error', error: turn.streamError } }
          : { data: { error: { message: turn.streamError.message, type: turn.streamError.type } } };
      events.splice(at, events.length - at, error);
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    for (const [i, chunk] of events.entries()) {
      if (closed || res.destroyed) return;
      if (turn.dropAfterChunks !== undefined && i >= turn.dropAfterChunks) {
        await wait(20); // let the client read what was sent before the connection goes
        res.socket?.destroy();
        return;
      }
      if (turn.stallAfterChunks !== undefined && i >= turn.stallAfterChunks) {
        await new Promise<void>((resolve) => {
          res.once('close', () => resolve());
          stalled.add(resolve);
        });
        return;
      }
      if (i > 0 && turn.chunkDelayMs) await wait(turn.chunkDelayMs);
      if (closed || res.destroyed) return;
      const data = typeof chunk.data === 'string' ? chunk.data : JSON.stringify(chunk.data);
      // wait for the flush, so a later drop cannot swallow events already "sent"
      await new Promise<void>((resolve) =>
        res.write(`${chunk.event ? `event: ${chunk.event}\n` : ''}data: ${data}\n\n`, () => resolve()),
      );
    }
    res.end();
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    anthropicBaseURL: url,
    openaiBaseURL: `${url}/v1`,
    requests,
    get answered() {
      return requests.filter((r) => r.turn !== undefined).map((r) => r.body);
    },
    push: (...more) => void script.push(...more),
    remaining: () => script.length,
    close: () =>
      new Promise<void>((resolve) => {
        closed = true;
        for (const t of timers) clearTimeout(t);
        for (const resolve of stalled) resolve();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

const ANTHROPIC_ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

function sendError(
  res: http.ServerResponse,
  api: 'anthropic' | 'openai',
  status: number,
  message?: string,
  headers: Record<string, string> = {},
  body?: unknown,
): void {
  const text = message ?? (status === 529 ? 'Overloaded' : status === 429 ? 'Rate limit exceeded' : `HTTP ${status}`);
  const payload =
    body ??
    (api === 'anthropic'
      ? { type: 'error', error: { type: ANTHROPIC_ERROR_TYPES[status] ?? 'api_error', message: text } }
      : {
          error: {
            message: text,
            type: status >= 500 ? 'server_error' : status === 429 ? 'requests' : 'invalid_request_error',
            param: null,
            code: status === 429 ? 'rate_limit_exceeded' : null,
          },
        });
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(typeof payload === 'string' ? payload : JSON.stringify(payload));
}
