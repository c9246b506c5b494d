/**
 * One configured MCP server: a single connection for the life of the process (the original started a
 * fresh server for every call), its tool list, and calls with a timeout and cancellation.
 *
 * Never hangs and never throws into the app: `connect()` settles within the initialize timeout and leaves
 * the server `connected` or `failed` with a reason; a stdio server that dies later is `failed` and the
 * next call of one of its tools restarts it once. The SDK is imported lazily, so the app pays for it only
 * when a server is configured.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { z } from 'zod';
import { abortReason, untilAborted } from '../abort.js';
import type { McpServerConfig } from '../config/schema.js';
import type { Sandbox } from '../sandbox/types.js';
import { sandboxProcess } from '../sandbox/process.js';
import { VERSION } from '../version.js';
import type { McpLog } from './log.js';
import type { McpCallResult } from './result.js';
import { keepOversizeMessagesApart, RESULT_TOO_LARGE, STDIO_READ_LIMIT_BYTES } from './stdio-limit.js';

/** `connecting` until the first `initialize` settles; `failed` carries a reason in `error`. */
export type McpServerStatus = 'disabled' | 'connecting' | 'connected' | 'failed';

/** A tool as the server lists it (the parts we use). */
export interface McpToolInfo {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  annotations?: { readOnlyHint?: boolean };
}

/** Wait for `initialize` (and the first `tools/list`); see {@link McpServer.initializeTimeoutMs}. */
export const DEFAULT_INITIALIZE_TIMEOUT_MS = 30_000;
/** Wait for one tool call unless the entry's `timeout` is set. */
export const DEFAULT_CALL_TIMEOUT_MS = 60_000;

/**
 * The shape a `tools/call` result is read with. Looser than the SDK's CallToolResultSchema on purpose: that
 * one fails the whole call when one image is not base64, or (with `callTool`) when structured content does
 * not match an output schema; we keep the rest of the result and check images ourselves (result.ts).
 */
const CALL_RESULT = z.looseObject({
  content: z.array(z.looseObject({ type: z.string() })).optional(),
  structuredContent: z.unknown().optional(),
  isError: z.boolean().optional(),
  toolResult: z.unknown().optional(),
});

// JSON-RPC error codes the SDK uses (types.ts ErrorCode); numbers, so the SDK stays lazily loaded
const CONNECTION_CLOSED = -32000;
const REQUEST_TIMEOUT = -32001;

/** A call that could not be made or finished; `message` is written for the model. */
export class McpCallError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'McpCallError';
  }
}

export interface McpServerOptions {
  name: string;
  config: McpServerConfig;
  /** the project directory: a stdio server's working directory */
  cwd: string;
  log: McpLog;
  /** overrides the initialize timeout (default: 30 s, or the entry's `timeout` when longer) */
  initializeTimeoutMs?: number;
  /** environment a stdio server inherits before the entry's `env` (default `process.env`) */
  env?: Record<string, string | undefined>;
  /**
   * The project's OS sandbox: a stdio server runs in it as a command that ran without the person's
   * approval does (writes in the project and its own temp directory, no network), unless its entry's
   * `sandbox` adds the network or writable places. Absent: no sandbox.
   */
  sandbox?: Sandbox;
  /** called after every change of status or tools */
  onChange: () => void;
}

/** One connection attempt; a later attempt makes the earlier one's callbacks inert. */
interface Attempt {
  client?: Client;
  abandoned: boolean;
  /** unix ms; stderr from before is another process's */
  startedAt: number;
  /** removes the sandboxed process's temp directory once it has exited */
  release?: () => void;
}

type Sdk = {
  Client: typeof import('@modelcontextprotocol/sdk/client/index.js').Client;
  types: typeof import('@modelcontextprotocol/sdk/types.js');
};
let sdk: Promise<Sdk> | undefined;
function loadSdk(): Promise<Sdk> {
  sdk ??= Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]).then(([client, types]) => ({ Client: client.Client, types }));
  return sdk;
}

export class McpServer {
  readonly name: string;
  readonly config: McpServerConfig;
  readonly log: McpLog;
  status: McpServerStatus;
  /** why the server failed, one line */
  error?: string;
  /** the tools of the last successful `tools/list` */
  tools: McpToolInfo[] = [];

  private attempt?: Attempt;
  private connecting?: Promise<void>;
  /** a stdio server that died after connecting: the next call restarts it */
  private crashed = false;
  private restarting = false;
  private closed = false;
  private refreshing?: Promise<void>;
  private refreshAgain = false;
  /** unix ms of the last tool call's start */
  private lastCallAt = 0;

  constructor(private readonly opts: McpServerOptions) {
    this.name = opts.name;
    this.config = opts.config;
    this.log = opts.log;
    this.status = opts.config.disabled ? 'disabled' : 'connecting';
  }

  get type(): McpServerConfig['type'] {
    return this.config.type;
  }

  /**
   * 30 s, or the entry's `timeout` when longer: `timeout` is meant for calls, and a short one must not
   * cut a server's start-up (an `npx` download), while a server trusted with long calls may start slowly.
   */
  get initializeTimeoutMs(): number {
    return this.opts.initializeTimeoutMs ?? Math.max(DEFAULT_INITIALIZE_TIMEOUT_MS, this.config.timeout ?? 0);
  }

  get callTimeoutMs(): number {
    return this.config.timeout ?? DEFAULT_CALL_TIMEOUT_MS;
  }

  /** Whether its tools belong in the registry: connected, or died and will be (or is being) restarted by a call. */
  get offersTools(): boolean {
    return this.status === 'connected' || this.crashed || this.restarting;
  }

  /** Connects (once at a time). Never rejects; afterwards the status is `connected` or `failed`. */
  connect(): Promise<void> {
    if (this.config.disabled || this.closed) return Promise.resolve();
    this.connecting ??= this.open().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  /** Resolves when a connection in progress has settled. */
  async settled(): Promise<void> {
    await this.connecting;
  }

  /**
   * Calls a tool. Rejects with {@link McpCallError} (timeout, server gone, server error), or with the
   * signal's AbortError at once when `signal` aborts; a timeout or abort sends `notifications/cancelled`.
   */
  async callTool(
    tool: string,
    args: Record<string, unknown>,
    options: { signal: AbortSignal; timeoutMs?: number },
  ): Promise<McpCallResult> {
    const { signal } = options;
    const timeoutMs = options.timeoutMs ?? this.callTimeoutMs;
    signal.throwIfAborted();
    const client = await untilAborted(this.usableClient(), signal);
    const calledAt = Date.now();
    this.lastCallAt = calledAt;
    try {
      return (await client.request({ method: 'tools/call', params: { name: tool, arguments: args } }, CALL_RESULT, {
        signal,
        timeout: timeoutMs,
      })) as McpCallResult;
    } catch (err) {
      // the SDK reports an abort as a RequestTimeout error: the signal tells them apart
      if (signal.aborted) throw abortReason(signal);
      const code = (err as { code?: unknown }).code;
      if (code === REQUEST_TIMEOUT) {
        throw new McpCallError(
          `${tool} (MCP server "${this.name}") did not answer within ${seconds(timeoutMs)}; the call was cancelled. ` +
            `The server's "timeout" setting in .opencode.json sets this limit.`,
        );
      }
      if (code === RESULT_TOO_LARGE) {
        throw new McpCallError(
          `the result of ${this.name} › ${tool} is larger than ${STDIO_READ_LIMIT_BYTES / 1024 / 1024} MB, the most one MCP message may carry: ` +
            'ask for less (a smaller part, page, region or image)',
        );
      }
      if (code === CONNECTION_CLOSED) {
        await nextTick(); // the last stderr lines may still be in flight
        const tail = this.stderrNote(calledAt);
        const restart = this.type === 'stdio' ? ' It will be restarted on the next call.' : '';
        throw new McpCallError(
          `MCP server "${this.name}" ${this.type === 'stdio' ? 'exited' : 'closed the connection'} during the call to ${tool}${tail}.${restart}`,
        );
      }
      throw new McpCallError(`MCP server "${this.name}" could not run ${tool}: ${describeError(err, this.config)}`);
    }
  }

  /** Disconnects for good (a stdio server's process is stopped). */
  async close(): Promise<void> {
    this.closed = true;
    const attempt = this.attempt;
    this.attempt = undefined;
    if (attempt) attempt.abandoned = true;
    await attempt?.client?.close().catch(() => {});
    this.log.close();
  }

  private async open(): Promise<void> {
    if (this.attempt) this.attempt.abandoned = true;
    const attempt: Attempt = { abandoned: false, startedAt: Date.now() };
    this.attempt = attempt;
    this.setStatus('connecting');
    const timeoutMs = this.initializeTimeoutMs;
    const handshake = this.handshake(attempt);
    handshake.catch(() => {}); // settled below, or abandoned after a timeout
    let timer: NodeJS.Timeout | undefined;
    try {
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new TimeoutError()), timeoutMs);
      });
      const tools = await Promise.race([handshake, timeout]);
      if (attempt.abandoned) return;
      this.tools = tools;
      this.log.info(`connected: ${tools.length} tool(s): ${tools.map((t) => t.name).join(', ')}`);
      this.setStatus('connected');
    } catch (err) {
      if (attempt.abandoned) return;
      attempt.abandoned = true;
      void (attempt.client?.close() ?? Promise.resolve()).catch(() => {}).finally(() => attempt.release?.());
      await nextTick();
      const code = (err as { code?: unknown }).code;
      const reason =
        err instanceof TimeoutError || code === REQUEST_TIMEOUT
          ? `no answer to initialize within ${seconds(timeoutMs)}${this.stderrNote(attempt.startedAt)}`
          : code === CONNECTION_CLOSED
            ? `${this.type === 'stdio' ? 'the process exited' : 'the server closed the connection'} during initialize${this.stderrNote(attempt.startedAt)}`
            : `${describeError(err, this.config)}${this.stderrNote(attempt.startedAt)}`;
      this.tools = [];
      this.log.info(`failed: ${reason}`);
      this.setStatus('failed', reason);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Starts the transport, initializes, lists the tools. */
  private async handshake(attempt: Attempt): Promise<McpToolInfo[]> {
    const { Client, types } = await loadSdk();
    const transport = await this.createTransport(attempt);
    const client = new Client({ name: 'opencode', version: VERSION }, { capabilities: {} });
    attempt.client = client;
    client.onerror = (err) => this.log.info(`protocol error: ${err.message}`);
    client.onclose = () => {
      attempt.release?.();
      this.onClosed(attempt);
    };
    client.setNotificationHandler(types.ToolListChangedNotificationSchema, () => this.refreshTools(attempt));
    if (attempt.abandoned) throw new Error('abandoned');
    await client.connect(transport, { timeout: this.initializeTimeoutMs });
    if (attempt.abandoned) {
      void client.close().catch(() => {});
      throw new Error('abandoned');
    }
    return this.listTools(client, this.initializeTimeoutMs);
  }

  private async createTransport(attempt: Attempt): Promise<Transport> {
    const { config } = this;
    if (config.type === 'stdio') {
      const [{ StdioClientTransport }, { deserializeMessage }] = await Promise.all([
        import('@modelcontextprotocol/sdk/client/stdio.js'),
        import('@modelcontextprotocol/sdk/shared/stdio.js'),
      ]);
      // The original passed its whole environment plus the entry's (mcp-go's stdio client); so do we.
      const env: Record<string, string> = {};
      for (const [key, value] of Object.entries(this.opts.env ?? process.env))
        if (value !== undefined) env[key] = value;
      const serverEnv: Record<string, string> = { ...env, ...config.env };
      const sandboxed = await sandboxProcess(this.opts.sandbox, [config.command!, ...(config.args ?? [])], {
        settings: config.sandbox,
        pathVariable: serverEnv.PATH,
        // what the entry's own `env` sets reaches the server in the sandbox too
        keepEnv: Object.keys(config.env ?? {}),
      });
      attempt.release = () => void sandboxed.release();
      const transport = new StdioClientTransport({
        command: sandboxed.file,
        args: sandboxed.args,
        env: { ...serverEnv, ...sandboxed.env },
        cwd: this.opts.cwd,
        stderr: 'pipe',
      });
      // attached before start so nothing the server writes early is lost, or reaches our terminal
      transport.stderr?.on('data', (chunk: Buffer) => this.log.stderr(chunk.toString('utf8')));
      // a result over the read limit fails its call, not the connection (stdio-limit.ts)
      if (!keepOversizeMessagesApart(transport, deserializeMessage)) {
        this.log.info('this SDK version has another stdio reader: a result over 10 MB will close the connection');
      }
      return transport;
    }
    const url = parseUrl(config.url);
    const requestInit = config.headers ? { headers: config.headers } : undefined;
    if (config.type === 'sse') {
      const { SSEClientTransport } = await import('@modelcontextprotocol/sdk/client/sse.js');
      return new SSEClientTransport(url, { requestInit });
    }
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    return new StreamableHTTPClientTransport(url, { requestInit });
  }

  /** `tools/list`, every page. */
  private async listTools(client: Client, timeoutMs: number): Promise<McpToolInfo[]> {
    const tools: McpToolInfo[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 100; page++) {
      const result = await client.listTools(cursor ? { cursor } : undefined, { timeout: timeoutMs });
      tools.push(...(result.tools as McpToolInfo[]));
      cursor = result.nextCursor;
      if (!cursor) break;
    }
    return tools;
  }

  /** On `notifications/tools/list_changed`: lists again; notifications during a refresh coalesce into one more. */
  private refreshTools(attempt: Attempt): void {
    if (attempt !== this.attempt || this.status !== 'connected' || !attempt.client) return;
    if (this.refreshing) {
      this.refreshAgain = true;
      return;
    }
    const client = attempt.client;
    this.refreshing = (async () => {
      do {
        this.refreshAgain = false;
        try {
          const tools = await this.listTools(client, this.callTimeoutMs);
          if (attempt !== this.attempt) return;
          this.tools = tools;
          this.log.info(`tools changed: ${tools.length} tool(s): ${tools.map((t) => t.name).join(', ')}`);
          this.opts.onChange();
        } catch (err) {
          this.log.info(`tools/list after list_changed failed: ${(err as Error).message}`);
        }
      } while (this.refreshAgain);
    })().finally(() => (this.refreshing = undefined));
  }

  /** The transport closed: after a successful connect that means the server died. */
  private onClosed(attempt: Attempt): void {
    if (attempt.abandoned || attempt !== this.attempt || this.closed || this.status !== 'connected') return;
    attempt.abandoned = true;
    this.crashed = this.type === 'stdio';
    const what = this.type === 'stdio' ? 'the process exited' : 'the server closed the connection';
    // failed at once, so no call uses the dead client; announced a tick later, with the last stderr lines
    this.status = 'failed';
    this.error = what;
    void nextTick().then(() => {
      if (this.attempt !== attempt || this.status !== 'failed') return;
      // what it wrote since the last call (or its start) says why; its start-up banner does not
      const reason = `${what}${this.stderrNote(Math.max(attempt.startedAt, this.lastCallAt))}`;
      this.log.info(`${reason}${this.crashed ? '; the next call restarts it' : ''}`);
      this.setStatus('failed', reason);
    });
  }

  /** The connected client, restarting a crashed stdio server once, or waiting for a connect in progress. */
  private async usableClient(): Promise<Client> {
    if (this.status === 'connected' && this.attempt?.client && !this.attempt.abandoned) return this.attempt.client;
    if (!this.connecting && this.crashed) {
      this.crashed = false;
      this.restarting = true;
      this.log.info('restarting for a tool call');
      try {
        await this.connect();
      } finally {
        this.restarting = false;
        this.opts.onChange(); // a failed restart withdraws the tools
      }
      if (this.status !== 'connected') {
        throw new McpCallError(
          `MCP server "${this.name}" exited and could not be restarted: ${this.error ?? 'unknown reason'}`,
        );
      }
    } else {
      await this.connecting;
    }
    if (this.status === 'connected' && this.attempt?.client) return this.attempt.client;
    throw new McpCallError(`MCP server "${this.name}" is not connected${this.error ? `: ${this.error}` : ''}`);
  }

  private setStatus(status: McpServerStatus, error?: string): void {
    this.status = status;
    this.error = error;
    this.opts.onChange();
  }

  /** ` (stderr: …)` with the server's last stderr lines written since `sinceMs`, or `''`. */
  private stderrNote(sinceMs: number): string {
    if (this.type !== 'stdio') return '';
    const tail = this.log.stderrTail(3, sinceMs);
    return tail ? ` (stderr: ${tail.length > 300 ? `${tail.slice(0, 297)}...` : tail})` : '';
  }
}

class TimeoutError extends Error {}

/** One line for a connection or call failure. */
function describeError(err: unknown, config: McpServerConfig): string {
  const e = err as NodeJS.ErrnoException & { cause?: { code?: string; message?: string } };
  if (e?.code === 'ENOENT' && e.syscall?.startsWith('spawn')) return `command not found: ${config.command}`;
  if (e?.code === 'EACCES' && e.syscall?.startsWith('spawn')) return `cannot run ${config.command}: permission denied`;
  if (e?.cause?.code || (e?.message === 'fetch failed' && e.cause)) {
    return `cannot reach ${config.url}: ${e.cause?.message ?? e.cause?.code}`;
  }
  const message = err instanceof Error ? err.message : String(err);
  return message.replace(/^MCP error -?\d+: /, '');
}

function parseUrl(url: string | undefined): URL {
  try {
    return new URL(url ?? '');
  } catch {
    throw new Error(`invalid URL "${url ?? ''}"`);
  }
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

function nextTick(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
