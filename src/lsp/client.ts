/**
 * One language server over stdio (vscode-jsonrpc): spawn, the initialize handshake, open documents,
 * and the diagnostics it publishes or answers when pulled. Knows nothing of ours above it.
 *
 * The handshake is done as servers expect and the original did not: every
 * server→client handler is registered before `initialize` is sent (the original registered them
 * after, and missed early requests), the workspace folder and every URI are percent-encoded `file://`
 * URIs, and `workspace/configuration`, `client/registerCapability`, `window/workDoneProgress/create`
 * are answered (typescript-language-server 5.3.0 waits on them: reference deps.md 2f).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { basename } from 'node:path';
import type { MessageConnection } from 'vscode-jsonrpc/node';
import { fromLsp, type Diagnostic, type LspDiagnostic } from './diagnostics.js';
import { FrameGuard } from './frame-guard.js';
import { pathToUri, uriToPath } from './uri.js';

/** An LSP `WorkspaceEdit` (the parts we apply: `changes` and `documentChanges` of text edits). */
export interface WorkspaceEdit {
  changes?: Record<string, TextEdit[]>;
  documentChanges?: (
    { textDocument: { uri: string; version?: number | null }; edits: TextEdit[] } | { kind: string }
  )[];
}

/** An LSP `TextEdit`: replace `range` (0-based lines, UTF-16 characters) by `newText`. */
export interface TextEdit {
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  newText: string;
}

/** What starts a server. */
export interface LspClientOptions {
  /** e.g. `typescript` (for messages) */
  name: string;
  command: string;
  args: string[];
  /** the whole environment of the server process */
  env: NodeJS.ProcessEnv;
  /** what is spawned instead of `command` and `args` when they run inside a launcher (the OS sandbox); messages still name `command` */
  launch?: { file: string; args: string[] };
  /** the workspace folder (absolute) */
  root: string;
  initializationOptions?: unknown;
  /** how long `initialize` may take before the server is given up (ms) */
  startTimeoutMs: number;
  /** the server asked to change files (`workspace/applyEdit`); the answer goes back to it */
  onApplyEdit?: (
    edit: WorkspaceEdit,
    label: string | undefined,
  ) => Promise<{ applied: boolean; failureReason?: string }>;
  /** the server process ended after a successful start (crash or exit), with a one-line reason */
  onExit?: (reason: string) => void;
  /** verbose traffic log (`debugLSP`) */
  log?: (line: string) => void;
  /** a file's diagnostics were stored (published or pulled) */
  onDiagnostics?: (path: string) => void;
}

/** Raised when a server cannot be started; the message is the reason shown to the person. */
export class LspStartError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LspStartError';
  }
}

interface StoredDiagnostics {
  items: Diagnostic[];
  version?: number;
  /** increases with every report for any file */
  seq: number;
}

interface OpenDocument {
  languageId: string;
  version: number;
  text: string;
}

/** How long a quitting server gets for `shutdown` and for exiting before it is killed (ms). */
const SHUTDOWN_GRACE_MS = 1500;
/** How long a failed handshake waits for the process's exit, whose code and stderr make the better reason (ms). */
const EXIT_REASON_WAIT_MS = 1000;
/** Bytes of the server's stderr kept for the failure reason. */
const STDERR_TAIL_BYTES = 2000;

/** Framing problems on the server's stdout (see frame-guard.ts), and who is told of one. */
interface Framing {
  problem?: string;
  onProblem?: (reason: string) => void;
}

/** A started language server. Create with {@link LspClient.start}. */
export class LspClient {
  private readonly diagnostics = new Map<string, StoredDiagnostics>();
  private readonly documents = new Map<string, OpenDocument>();
  private readonly waiters = new Set<() => void>();
  private seq = 0;
  private exited = false;
  private closing = false;
  private ready = false;
  private readonly readyWaiters = new Set<() => void>();
  /** glob patterns the server asked to be told about (`workspace/didChangeWatchedFiles` registrations) */
  readonly watchedGlobs: string[] = [];
  /** the server's `initialize` result capabilities */
  capabilities: Record<string, unknown> = {};

  private constructor(
    private readonly options: LspClientOptions,
    private readonly child: ChildProcess,
    private readonly connection: MessageConnection,
    private readonly stderrTail: { text: string },
    private readonly framing: Framing,
  ) {}

  /**
   * Spawns the server and runs the handshake (`initialize`, then `initialized`).
   * @throws LspStartError when the command is missing, the process exits, or `initialize` fails or
   *   takes longer than `startTimeoutMs` (the process is killed then)
   */
  static async start(options: LspClientOptions): Promise<LspClient> {
    // imported here so that -p and the first frame never load it (servers start lazily)
    const loaded = await import('vscode-jsonrpc/node');
    // a CommonJS package: Node gives named exports, the esbuild bundle only a default export
    const rpc =
      typeof loaded.createMessageConnection === 'function'
        ? loaded
        : (loaded as unknown as { default: typeof loaded }).default;
    const child = spawn(options.launch?.file ?? options.command, options.launch?.args ?? options.args, {
      cwd: options.root,
      env: options.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    const stderrTail = { text: '' };
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      stderrTail.text = (stderrTail.text + chunk).slice(-STDERR_TAIL_BYTES);
      options.log?.(`[${options.name} stderr] ${chunk.trimEnd()}`);
    });
    const spawned = new Promise<void>((resolve, reject) => {
      child.once('spawn', () => resolve());
      child.once('error', (err: NodeJS.ErrnoException) => {
        reject(
          new LspStartError(
            err.code === 'ENOENT'
              ? `command not found: ${options.command} (install it, or set lsp.${options.name}.command)`
              : `cannot start ${options.command}: ${err.message}`,
          ),
        );
      });
    });
    // a failed spawn still emits stream errors (EPIPE on stdin); they are reported through `spawned`
    child.stdin!.on('error', () => {});
    const framing: Framing = {};
    const guard = new FrameGuard();
    child.stdout!.on('data', (chunk: Buffer) => {
      if (framing.problem) return;
      const problem = guard.push(chunk);
      if (!problem) return;
      framing.problem = `${options.command} ${problem}`;
      framing.onProblem?.(framing.problem);
    });
    await spawned;
    let client: LspClient | undefined;
    try {
      const connection = rpc.createMessageConnection(
        new rpc.StreamMessageReader(child.stdout!),
        new rpc.StreamMessageWriter(child.stdin!),
      );
      connection.onError(() => {});
      client = new LspClient(options, child, connection, stderrTail, framing);
      client.registerHandlers();
      connection.listen();
      await client.initialize();
      return client;
    } catch (err) {
      // whatever failed, the process goes with it
      if (client) client.kill();
      else if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      throw err instanceof LspStartError
        ? err
        : new LspStartError(`cannot talk to ${options.command}: ${(err as Error).message}`);
    }
  }

  /** The server's name, e.g. `typescript`. */
  get name(): string {
    return this.options.name;
  }

  /** Whether the process is gone. */
  get isDead(): boolean {
    return this.exited;
  }

  private registerHandlers(): void {
    const { connection, options } = this;
    const root = options.root;
    connection.onRequest('workspace/configuration', (params: { items?: unknown[] }) =>
      (params.items ?? []).map(() => ({})),
    );
    connection.onRequest(
      'client/registerCapability',
      (params: {
        registrations?: { method: string; registerOptions?: { watchers?: { globPattern: unknown }[] } }[];
      }) => {
        for (const r of params.registrations ?? []) {
          if (r.method !== 'workspace/didChangeWatchedFiles') continue;
          for (const w of r.registerOptions?.watchers ?? []) {
            if (typeof w.globPattern === 'string') this.watchedGlobs.push(w.globPattern);
            else if (w.globPattern && typeof (w.globPattern as { pattern?: unknown }).pattern === 'string')
              this.watchedGlobs.push((w.globPattern as { pattern: string }).pattern);
          }
        }
        return null;
      },
    );
    connection.onRequest('client/unregisterCapability', () => null);
    connection.onRequest('window/workDoneProgress/create', () => null);
    connection.onRequest('window/showMessageRequest', () => null);
    connection.onRequest('workspace/workspaceFolders', () => [{ uri: pathToUri(root), name: basename(root) }]);
    connection.onRequest('workspace/applyEdit', async (params: { edit: WorkspaceEdit; label?: string }) => {
      if (!options.onApplyEdit) return { applied: false, failureReason: 'this client does not apply edits' };
      try {
        return await options.onApplyEdit(params.edit, params.label);
      } catch (err) {
        return { applied: false, failureReason: (err as Error).message };
      }
    });
    connection.onNotification(
      'textDocument/publishDiagnostics',
      (params: { uri: string; version?: number; diagnostics: LspDiagnostic[] }) => {
        const path = uriToPath(params.uri);
        if (!path) return;
        this.store(path, params.diagnostics, params.version);
      },
    );
    connection.onNotification('window/logMessage', (p: { message: string }) =>
      options.log?.(`[${options.name}] ${p.message}`),
    );
    connection.onNotification('window/showMessage', (p: { message: string }) =>
      options.log?.(`[${options.name}] ${p.message}`),
    );
    connection.onNotification(() => {});
    this.child.once('exit', (code, signal) => {
      this.exited = true;
      connection.dispose();
      this.wake();
      if (this.closing) return;
      const tail = this.stderrTail.text.trim().split('\n').pop()?.slice(0, 200);
      const how = signal ? `killed by ${signal}` : `exited with code ${code}`;
      options.onExit?.(`${how}${tail ? ` (${tail})` : ''}`);
    });
    if (options.log)
      connection.onUnhandledNotification((n: { method: string }) =>
        options.log!(`[${options.name}] unhandled ${n.method}`),
      );
  }

  private async initialize(): Promise<void> {
    const { options, connection } = this;
    const rootUri = pathToUri(options.root);
    const params = {
      // a server in the sandbox's own pid namespace cannot see our pid: it would take us for gone and exit
      processId: this.options.launch ? null : process.pid,
      clientInfo: { name: 'opencode' },
      rootUri,
      rootPath: options.root,
      workspaceFolders: [{ uri: rootUri, name: basename(options.root) }],
      initializationOptions: options.initializationOptions,
      capabilities: {
        workspace: {
          configuration: true,
          workspaceFolders: true,
          applyEdit: true,
          workspaceEdit: { documentChanges: true },
          didChangeWatchedFiles: { dynamicRegistration: true, relativePatternSupport: true },
          didChangeConfiguration: { dynamicRegistration: true },
        },
        textDocument: {
          synchronization: { dynamicRegistration: true, didSave: true, willSave: false, willSaveWaitUntil: false },
          publishDiagnostics: {
            relatedInformation: false,
            versionSupport: true,
            tagSupport: { valueSet: [1, 2] },
            codeDescriptionSupport: true,
            dataSupport: false,
          },
          diagnostic: { dynamicRegistration: false, relatedDocumentSupport: false },
        },
        window: { workDoneProgress: true, showMessage: {} },
        general: { positionEncodings: ['utf-16'] },
      },
    };
    let exitReason: string | undefined;
    const exited = new Promise<never>((_, reject) => {
      this.child.once('exit', (code, signal) => {
        const tail = this.stderrTail.text.trim().split('\n').pop()?.slice(0, 200);
        exitReason = `${options.command} ${signal ? `was killed by ${signal}` : `exited with code ${code}`} during initialize${tail ? `: ${tail}` : ''}`;
        reject(new LspStartError(exitReason));
      });
    });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new LspStartError(`no answer to initialize within ${options.startTimeoutMs} ms`)),
        options.startTimeoutMs,
      );
    });
    // what is not LSP on stdout ends the handshake at once (the reader would wait for ever)
    const garbled = new Promise<never>((_, reject) => {
      const fail = (reason: string) => reject(new LspStartError(reason));
      if (this.framing.problem) fail(this.framing.problem);
      else this.framing.onProblem = fail;
    });
    try {
      const result = (await Promise.race([connection.sendRequest('initialize', params), exited, timeout, garbled])) as {
        capabilities?: Record<string, unknown>;
      };
      this.capabilities = result?.capabilities ?? {};
    } catch (err) {
      if (err instanceof LspStartError) throw err;
      // a process that dies closes the connection first: its exit code and stderr say more than that
      // (an error answer, which has a numeric code, comes from a live server: nothing to wait for)
      if (typeof (err as { code?: unknown }).code !== 'number') {
        await Promise.race([
          exited.catch(() => {}),
          new Promise((resolve) => setTimeout(resolve, EXIT_REASON_WAIT_MS).unref()),
        ]);
      }
      throw new LspStartError(exitReason ?? `initialize failed: ${(err as Error).message}`);
    } finally {
      clearTimeout(timer);
    }
    // after the handshake, garbage is a crash: the process goes and the service restarts it once
    this.framing.onProblem = (reason) => {
      if (this.closing) return;
      this.kill();
      options.onExit?.(reason);
    };
    await connection.sendNotification('initialized', {});
    await connection.sendNotification('workspace/didChangeConfiguration', { settings: {} });
    // a server answering pull requests is ready when it answers; others when they first publish
    if (this.pullsDiagnostics) this.markReady();
  }

  /**
   * Whether the server has shown it is done with its initial load: its first published diagnostics
   * (typescript-language-server publishes only once tsserver has loaded the project), or at once for a
   * server that is asked for diagnostics (pull).
   */
  get isReady(): boolean {
    return this.ready;
  }

  /** Resolves true when the server is ready ({@link isReady}), false after `timeoutMs` or when it exits. */
  whenReady(timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    if (this.ready) return Promise.resolve(true);
    if (this.exited || timeoutMs <= 0 || signal?.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const done = (value: boolean) => {
        clearTimeout(timer);
        this.readyWaiters.delete(onReady);
        this.waiters.delete(onExit);
        signal?.removeEventListener('abort', onAbort);
        resolve(value);
      };
      const onReady = () => done(true);
      const onExit = () => {
        if (this.exited) done(false);
      };
      const onAbort = () => done(false);
      const timer = setTimeout(() => done(false), timeoutMs);
      this.readyWaiters.add(onReady);
      this.waiters.add(onExit);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  private markReady(): void {
    if (this.ready) return;
    this.ready = true;
    for (const waiter of [...this.readyWaiters]) waiter();
  }

  private store(path: string, wire: LspDiagnostic[], version: number | undefined): void {
    this.seq++;
    this.diagnostics.set(path, { items: wire.map((d) => fromLsp(path, d)), version, seq: this.seq });
    this.markReady();
    this.wake();
    this.options.onDiagnostics?.(path);
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }

  /** Whether the server answers `textDocument/diagnostic` (pull diagnostics, LSP 3.17). */
  get pullsDiagnostics(): boolean {
    return this.capabilities.diagnosticProvider !== undefined && this.capabilities.diagnosticProvider !== null;
  }

  /** Paths of the open documents. */
  openPaths(): string[] {
    return [...this.documents.keys()];
  }

  /** Whether `path` is open on this server. */
  isOpen(path: string): boolean {
    return this.documents.has(path);
  }

  /** The report counter: pass it to {@link waitForDiagnostics} to wait for a later report. */
  get reportSeq(): number {
    return this.seq;
  }

  /** The last diagnostics of `path` (none when the server never reported on it). */
  diagnosticsOf(path: string): Diagnostic[] {
    return this.diagnostics.get(path)?.items ?? [];
  }

  /** Whether the server ever reported on `path`. */
  hasReported(path: string): boolean {
    return this.diagnostics.has(path);
  }

  /** Every file's last diagnostics. */
  allDiagnostics(): Map<string, Diagnostic[]> {
    return new Map([...this.diagnostics].map(([path, d]) => [path, d.items]));
  }

  /** `didOpen` with `text`; a document already open gets a `didChange` instead. */
  async open(path: string, languageId: string, text: string): Promise<void> {
    const doc = this.documents.get(path);
    if (doc) {
      if (doc.text !== text) await this.change(path, text);
      return;
    }
    this.documents.set(path, { languageId, version: 1, text });
    await this.notify('textDocument/didOpen', { textDocument: { uri: pathToUri(path), languageId, version: 1, text } });
  }

  /** `didChange` with the whole text (full sync) and the next version, then `didSave`. Returns the version sent. */
  async change(path: string, text: string, languageId = 'plaintext'): Promise<number> {
    const doc = this.documents.get(path);
    if (!doc) {
      await this.open(path, languageId, text);
      return 1;
    }
    doc.version++;
    doc.text = text;
    const uri = pathToUri(path);
    await this.notify('textDocument/didChange', {
      textDocument: { uri, version: doc.version },
      contentChanges: [{ text }],
    });
    await this.notify('textDocument/didSave', { textDocument: { uri }, text });
    return doc.version;
  }

  /** `didClose`; its stored diagnostics are dropped (servers clear them on close). */
  async close(path: string): Promise<void> {
    if (!this.documents.delete(path)) return;
    this.diagnostics.delete(path);
    await this.notify('textDocument/didClose', { textDocument: { uri: pathToUri(path) } });
  }

  /** `workspace/didChangeWatchedFiles` (type 1 created, 2 changed, 3 deleted). */
  async filesChanged(changes: { path: string; type: 1 | 2 | 3 }[]): Promise<void> {
    if (changes.length === 0) return;
    await this.notify('workspace/didChangeWatchedFiles', {
      changes: changes.map((c) => ({ uri: pathToUri(c.path), type: c.type })),
    });
  }

  /**
   * Waits for a report on `path` later than `afterSeq` (and, when the server sends versions, for
   * `version` or later), then `settleMs` more for a follow-up report (typescript-language-server
   * reports syntax and semantic problems separately). Resolves true when one came, false on timeout.
   */
  async waitForDiagnostics(
    path: string,
    afterSeq: number,
    version: number | undefined,
    timeoutMs: number,
    settleMs: number,
    signal?: AbortSignal,
  ): Promise<boolean> {
    const fresh = (): boolean => {
      const d = this.diagnostics.get(path);
      return (
        d !== undefined &&
        d.seq > afterSeq &&
        (d.version === undefined || version === undefined || d.version >= version)
      );
    };
    const arrived = await this.waitUntil(fresh, timeoutMs, signal);
    if (!arrived) return false;
    const first = this.diagnostics.get(path)!.seq;
    await this.waitUntil(() => (this.diagnostics.get(path)?.seq ?? 0) > first, settleMs, signal);
    return true;
  }

  private waitUntil(test: () => boolean, timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    if (test()) return Promise.resolve(true);
    if (this.exited || timeoutMs <= 0 || signal?.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const done = (value: boolean) => {
        clearTimeout(timer);
        this.waiters.delete(check);
        signal?.removeEventListener('abort', onAbort);
        resolve(value);
      };
      const check = () => {
        if (test()) done(true);
        else if (this.exited) done(false);
      };
      const onAbort = () => done(false);
      const timer = setTimeout(() => done(false), timeoutMs);
      this.waiters.add(check);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Pulls the diagnostics of `path` (`textDocument/diagnostic`) and stores them. False on timeout or error. */
  async pullDiagnostics(path: string, timeoutMs: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    try {
      const result = (await Promise.race([
        this.connection.sendRequest('textDocument/diagnostic', { textDocument: { uri: pathToUri(path) } }),
        new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), timeoutMs))),
      ])) as { kind?: string; items?: LspDiagnostic[] } | undefined;
      if (!result) return false;
      if (result.kind === 'full') this.store(path, result.items ?? [], this.documents.get(path)?.version);
      else if (!this.diagnostics.has(path)) this.store(path, [], this.documents.get(path)?.version);
      return true;
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  private async notify(method: string, params: unknown): Promise<void> {
    if (this.exited) return;
    try {
      await this.connection.sendNotification(method, params);
    } catch {
      // the process went away; its exit handler reports it
    }
  }

  /** `shutdown` and `exit`, then kills the process (and its children) if it is still there. */
  async shutdown(): Promise<void> {
    this.closing = true;
    if (this.exited) return this.kill();
    const gone = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());
    try {
      await Promise.race([this.connection.sendRequest('shutdown'), wait(SHUTDOWN_GRACE_MS), gone]);
      await this.notify('exit', undefined);
    } catch {
      // already gone or not answering: killed below
    }
    await Promise.race([gone, wait(SHUTDOWN_GRACE_MS)]);
    this.kill();
  }

  /**
   * Kills the server's process group at once, and lets go of its pipes. The group is killed even when
   * the server itself already exited: typescript-language-server's tsserver children outlive it and
   * hold its stderr, which would keep our process alive (`-p` never exited).
   */
  kill(): void {
    this.closing = true;
    if (this.child.pid !== undefined) {
      try {
        process.kill(-this.child.pid, 'SIGKILL');
      } catch {
        if (!this.exited) this.child.kill('SIGKILL');
      }
    }
    this.child.stdin?.destroy();
    this.child.stdout?.destroy();
    this.child.stderr?.destroy();
  }
}
