/**
 * The read limit of a stdio MCP connection, kept without losing the server.
 *
 * The SDK's `StdioClientTransport` buffers the server's stdout up to 10 MB
 * (`STDIO_DEFAULT_MAX_BUFFER_SIZE`, @modelcontextprotocol/sdk 1.32 `shared/stdio.js`) and, past it,
 * closes the transport and kills the process: one 8.7 MB screenshot (11.6 MB as base64 JSON) looked like a
 * crash, the call failed as "exited", and the server was restarted. {@link OversizeLineBuffer} replaces
 * the transport's buffer: a message longer than the limit is skipped up to its end of line and answered
 * in its place by a JSON-RPC error for the same request id, {@link RESULT_TOO_LARGE}, which server.ts
 * turns into "the result of server › tool is larger than 10 MB: ask for less". The connection stays up.
 *
 * The id of a skipped message is read from the kept head or tail of its line (`{"jsonrpc":"2.0","id":7,…`
 * as most servers write it, or `…,"jsonrpc":"2.0","id":7}` as the TypeScript SDK does); failing that, it
 * is the only request still waiting for an answer. When neither tells, the message is dropped and the
 * call ends by its own timeout.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** JSON-RPC error code of the stand-in answer for a message over the limit (implementation-defined range). */
export const RESULT_TOO_LARGE = -32090;

/** The SDK's stdio read limit, bytes (`STDIO_DEFAULT_MAX_BUFFER_SIZE`). */
export const STDIO_READ_LIMIT_BYTES = 10 * 1024 * 1024;

/** Bytes kept of each end of a skipped line, to find its request id. */
const EDGE_BYTES = 512;

/** What the transport's buffer must do (the SDK's `ReadBuffer` interface). */
export interface StdioReadBuffer {
  append(chunk: Buffer): void;
  readMessage(): JSONRPCMessage | null;
  clear(): void;
}

/**
 * A line buffer like the SDK's `ReadBuffer`, except that a line over `limitBytes` is skipped and
 * reported as a {@link RESULT_TOO_LARGE} error answer instead of failing the connection. Requests
 * passed to {@link sent} are the fallback for finding a skipped line's id. `parse` is the SDK's
 * `deserializeMessage` (throws on a line that is not a JSON-RPC message).
 */
export class OversizeLineBuffer implements StdioReadBuffer {
  private chunks: Buffer[] = [];
  private size = 0;
  /** set while skipping an over-long line: its first bytes, the last bytes seen, the count */
  private skipping?: { head: Buffer; tail: Buffer; bytes: number };
  /** complete lines (parsed when read, so a bad line fails in readMessage as with the SDK's buffer) and stand-in answers */
  private readonly ready: (string | JSONRPCMessage)[] = [];
  /** ids of requests sent and not yet answered */
  private readonly pending = new Set<string | number>();

  constructor(
    private readonly limitBytes: number,
    private readonly parse: (line: string) => JSONRPCMessage,
  ) {}

  /** Notes a message we send: a request's id is pending until its answer is read. */
  sent(message: JSONRPCMessage): void {
    if ('method' in message && 'id' in message && message.id !== undefined) this.pending.add(message.id);
  }

  append(chunk: Buffer): void {
    let rest = chunk;
    while (rest.length > 0) {
      const newline = rest.indexOf(0x0a);
      const piece = newline === -1 ? rest : rest.subarray(0, newline);
      rest = newline === -1 ? Buffer.alloc(0) : rest.subarray(newline + 1);
      if (this.skipping) this.skip(piece);
      else {
        this.chunks.push(piece);
        this.size += piece.length;
        if (this.size > this.limitBytes) {
          const line = Buffer.concat(this.chunks);
          this.chunks = [];
          this.size = 0;
          this.skipping = { head: Buffer.from(line.subarray(0, EDGE_BYTES)), tail: Buffer.alloc(0), bytes: 0 };
          this.skip(line);
        }
      }
      if (newline !== -1) this.endLine();
    }
  }

  readMessage(): JSONRPCMessage | null {
    const next = this.ready.shift();
    if (next === undefined) return null;
    const message = typeof next === 'string' ? this.parse(next) : next;
    if (!('method' in message) && 'id' in message && message.id !== undefined) this.pending.delete(message.id);
    return message;
  }

  clear(): void {
    this.chunks = [];
    this.size = 0;
    this.skipping = undefined;
    this.ready.length = 0;
    this.pending.clear();
  }

  private skip(piece: Buffer): void {
    const s = this.skipping!;
    s.bytes += piece.length;
    const joined = Buffer.concat([s.tail, piece.subarray(Math.max(0, piece.length - EDGE_BYTES))]);
    s.tail = Buffer.from(joined.subarray(Math.max(0, joined.length - EDGE_BYTES)));
  }

  private endLine(): void {
    if (this.skipping) {
      const { head, tail, bytes } = this.skipping;
      this.skipping = undefined;
      const id =
        idOf(head.toString('utf8'), tail.toString('utf8').replace(/\r$/, '')) ?? onlyPending([...this.pending]);
      if (id !== undefined) {
        this.ready.push({
          jsonrpc: '2.0',
          id,
          error: {
            code: RESULT_TOO_LARGE,
            message: `message of ${bytes} bytes is over the ${this.limitBytes}-byte read limit`,
            data: { bytes },
          },
        });
      }
      return;
    }
    const line = Buffer.concat(this.chunks).toString('utf8').replace(/\r$/, '');
    this.chunks = [];
    this.size = 0;
    if (line.trim() !== '') this.ready.push(line);
  }
}

/** The request id at the start (`{"jsonrpc":"2.0","id":7,` / `{"id":7,`) or end (`"id":7}`) of a JSON-RPC line. */
export function idOf(head: string, tail: string): string | number | undefined {
  const value = (raw: string) => (raw.startsWith('"') ? (JSON.parse(raw) as string) : Number(raw));
  const start = /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")/.exec(head);
  if (start) return value(start[1]!);
  const end = /"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")\s*(?:,\s*"jsonrpc"\s*:\s*"2\.0"\s*)?\}\s*$/.exec(tail);
  return end ? value(end[1]!) : undefined;
}

function onlyPending(ids: ReadonlyArray<string | number>): string | number | undefined {
  return ids.length === 1 ? ids[0] : undefined;
}

/**
 * Puts an {@link OversizeLineBuffer} in place of the read buffer of an SDK `StdioClientTransport`
 * (its private `_readBuffer`, SDK 1.32) and routes its sends through {@link OversizeLineBuffer.sent}.
 * Returns false, changing nothing, when the transport does not have that shape (another SDK version:
 * the SDK's own limit then applies). Call before `start()`.
 */
export function keepOversizeMessagesApart(
  transport: { send(message: JSONRPCMessage, options?: unknown): Promise<void> },
  parse: (line: string) => JSONRPCMessage,
  limitBytes = STDIO_READ_LIMIT_BYTES,
): boolean {
  const inner = transport as unknown as { _readBuffer?: Partial<StdioReadBuffer> };
  if (typeof inner._readBuffer?.append !== 'function' || typeof inner._readBuffer.readMessage !== 'function')
    return false;
  const buffer = new OversizeLineBuffer(limitBytes, parse);
  inner._readBuffer = buffer;
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    buffer.sent(message);
    return send(message, options);
  };
  return true;
}
