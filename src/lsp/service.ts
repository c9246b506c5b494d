/**
 * The language servers of one project: started when the app starts ({@link
 * LspService.startEarly}) or when the first file of their language is viewed or changed, never waited
 * on by anything but a diagnostics request (which waits for a server's initial load within its start
 * timeout), marked failed with the reason when they cannot start, crash or write what is not LSP (a
 * crashed server is restarted once), and shut down when the app closes. Tracks the open documents of each server (at most `maxOpenDocuments`, the
 * least recently used are closed), and turns a change into a {@link ChangeReport}.
 */
import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import type { Sandbox } from '../sandbox/types.js';
import { sandboxProcess, type SandboxedProcess } from '../sandbox/process.js';
import { LspClient, LspStartError, type WorkspaceEdit } from './client.js';
import { countProblems, newSince, problemsOnly, type ChangeReport, type Diagnostic } from './diagnostics.js';
import { firstFileWith, languageIdOf, type LspServerPlan } from './servers.js';
import { watchProject, type FileChange, type ProjectWatcher } from './watcher.js';

/** Where a server is: not needed yet, starting, ready, or failed with a reason. */
export type LspServerState = 'idle' | 'starting' | 'ready' | 'failed';

/** One server as the TUI and `opencode lsp list` show it. */
export interface LspServerStatus {
  language: string;
  command: string;
  state: LspServerState;
  /** why it failed (state `failed`), e.g. `command not found: gopls` */
  reason?: string;
  source: LspServerPlan['source'];
  why: string;
}

/** Applies a server's `workspace/applyEdit` (asks permission first); `tag` is the last caller's tag (a session id). */
export type ApplyEditHandler = (
  edit: WorkspaceEdit,
  label: string | undefined,
  tag: string | undefined,
) => Promise<{ applied: boolean; failureReason?: string }>;

export interface LspServiceOptions {
  /** the project directory (absolute) */
  root: string;
  servers: LspServerPlan[];
  /** the environment servers start with (before their entry's `env`) */
  env: Record<string, string | undefined>;
  /** documents kept open per server; the least recently used beyond it are closed (default 50) */
  maxOpenDocuments?: number;
  onApplyEdit?: ApplyEditHandler;
  /** watch the project for changes made outside our tools (default true) */
  watch?: boolean;
  /** `debugLSP` traffic log */
  log?: (line: string) => void;
  /**
   * The project's OS sandbox: servers run in it as a command that ran without the person's approval
   * does: they write only in the project and a temp directory of their own (TMPDIR and XDG_CACHE_HOME
   * point there, so caches last as long as the process), with no network, unless their entry's
   * `sandbox` says more. Absent: no sandbox.
   */
  sandbox?: Sandbox;
}

/** Default cap on open documents per server. */
export const DEFAULT_MAX_OPEN_DOCUMENTS = 50;
/** After the first fresh report, how long to wait for a follow-up report (ms). */
const SETTLE_MS = 150;

interface Slot {
  plan: LspServerPlan;
  state: LspServerState;
  reason?: string;
  client?: LspClient;
  starting?: Promise<LspClient | undefined>;
  restarts: number;
  /** open documents, least recently used first */
  recent: string[];
  /** when the current process was started (unix ms): its readiness is waited for until its start timeout from then */
  startedAt?: number;
  /** files whose diagnostics an edit result could not give because the server was still starting: the next result gives them */
  owed: Set<string>;
  /** removes the sandboxed process's temp directory; called once it has exited */
  release?: () => void;
}

/** What the `diagnostics` tool gets. */
export interface DiagnosticsQuery {
  /** the file's problems (when a file was asked for) */
  file: Diagnostic[];
  /** every other file's problems the servers reported */
  project: Diagnostic[];
  /** lines about servers that are missing, failed or slow */
  notes: string[];
}

export class LspService {
  private readonly slots: Slot[];
  private readonly listeners = new Set<() => void>();
  private watcher: ProjectWatcher | undefined;
  private closed = false;
  private lastTag: string | undefined;
  private readonly maxOpen: number;

  constructor(private readonly options: LspServiceOptions) {
    this.slots = options.servers.map((plan) => ({
      plan,
      state: 'idle',
      restarts: 0,
      recent: [],
      owed: new Set<string>(),
    }));
    this.maxOpen = options.maxOpenDocuments ?? DEFAULT_MAX_OPEN_DOCUMENTS;
  }

  /** Whether any server is configured or discovered (the `diagnostics` tool is offered then). */
  get hasServers(): boolean {
    return this.slots.length > 0;
  }

  /** Calls `listener` when a server's state or any diagnostics change; returns the unsubscribe. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emitChange(): void {
    for (const listener of [...this.listeners]) {
      try {
        listener();
      } catch {
        // a listener's problem is not the server's
      }
    }
  }

  /** Every server with its state. */
  statuses(): LspServerStatus[] {
    return this.slots.map((s) => ({
      language: s.plan.language,
      command: s.plan.command,
      state: s.state,
      ...(s.reason ? { reason: s.reason } : {}),
      source: s.plan.source,
      why: s.plan.why,
    }));
  }

  /** Error and warning counts over every file the servers reported on. */
  counts(): { errors: number; warnings: number } {
    const all: Diagnostic[] = [];
    for (const s of this.slots) for (const list of s.client?.allDiagnostics().values() ?? []) all.push(...list);
    return countProblems(all);
  }

  /** The server for `path` (by extension), if any. */
  private slotFor(path: string): Slot | undefined {
    const ext = extname(path).toLowerCase();
    return this.slots.find((s) => s.plan.extensions.includes(ext));
  }

  /** Whether some server serves `path`. */
  serves(path: string): boolean {
    return this.slotFor(path) !== undefined;
  }

  private start(slot: Slot): Promise<LspClient | undefined> {
    if (slot.state === 'ready' && slot.client) return Promise.resolve(slot.client);
    if (slot.state === 'failed' || this.closed) return Promise.resolve(undefined);
    if (slot.starting) return slot.starting;
    slot.state = 'starting';
    slot.reason = undefined;
    slot.startedAt = Date.now();
    this.emitChange();
    const { plan } = slot;
    slot.starting = this.sandboxed(plan)
      .then((sandboxed) => {
        slot.release = () => void sandboxed?.release();
        const cacheEnv = sandboxed?.tempDir ? { XDG_CACHE_HOME: sandboxed.tempDir } : {};
        return LspClient.start({
          name: plan.language,
          command: plan.command,
          args: plan.args,
          ...(sandboxed?.tempDir ? { launch: { file: sandboxed.file, args: sandboxed.args } } : {}),
          env: { ...this.options.env, ...plan.env, ...cacheEnv, ...sandboxed?.env },
          root: this.options.root,
          initializationOptions: plan.initializationOptions,
          startTimeoutMs: plan.startTimeoutMs,
          onApplyEdit: this.options.onApplyEdit
            ? (edit, label) => this.options.onApplyEdit!(edit, label, this.lastTag)
            : undefined,
          onExit: (reason) => this.crashed(slot, reason),
          log: this.options.log,
          onDiagnostics: () => this.emitChange(),
        });
      })
      .then(
        (client) => {
          slot.starting = undefined;
          if (this.closed) {
            void client.shutdown();
            return undefined;
          }
          slot.client = client;
          slot.state = 'ready';
          this.emitChange();
          this.startWatching();
          return client;
        },
        (err: Error) => {
          slot.starting = undefined;
          slot.release?.();
          slot.state = 'failed';
          slot.reason = err.message;
          this.emitChange();
          return undefined;
        },
      );
    return slot.starting;
  }

  /** The plan's command wrapped for the sandbox; undefined without one. A missing program fails as `spawn` would say it. */
  private async sandboxed(plan: LspServerPlan): Promise<SandboxedProcess | undefined> {
    if (!this.options.sandbox) return undefined;
    try {
      return await sandboxProcess(this.options.sandbox, [plan.command, ...plan.args], {
        settings: plan.sandbox,
        pathVariable: plan.env.PATH ?? this.options.env.PATH,
        keepEnv: Object.keys(plan.env),
      });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
        throw new LspStartError(`command not found: ${plan.command} (install it, or set lsp.${plan.language}.command)`);
      }
      throw new LspStartError((err as Error).message);
    }
  }

  /** A server that was ready went away: restarted once with its documents reopened, then failed for good. */
  private crashed(slot: Slot, reason: string): void {
    slot.release?.();
    const reopen = [...slot.recent];
    slot.client = undefined;
    slot.recent = [];
    if (this.closed) return;
    if (slot.restarts >= 1) {
      slot.state = 'failed';
      slot.reason = `crashed again after a restart: ${reason}`;
      this.emitChange();
      return;
    }
    slot.restarts++;
    slot.state = 'idle';
    void this.start(slot).then(async (client) => {
      if (!client) return;
      for (const path of reopen) {
        const text = readText(path);
        if (text !== undefined) await this.openOn(slot, client, path, text);
      }
    });
    if ((slot.state as LspServerState) === 'starting') slot.reason = `restarting after a crash: ${reason}`;
  }

  private startWatching(): void {
    if (this.watcher || this.options.watch === false || this.closed) return;
    this.watcher = watchProject(this.options.root, (changes) => void this.filesChangedOutside(changes));
  }

  /** Keeps `path` open on `client` as the most recently used, closing the least recently used beyond the cap. */
  private async openOn(
    slot: Slot,
    client: LspClient,
    path: string,
    text: string,
    keep: ReadonlySet<string> = new Set(),
  ): Promise<number> {
    slot.recent = slot.recent.filter((p) => p !== path);
    slot.recent.push(path);
    const version = client.isOpen(path)
      ? await client.change(path, text)
      : (await client.open(path, languageIdOf(path, slot.plan.language), text), 1);
    while (slot.recent.length > this.maxOpen) {
      const victim = slot.recent.find((p) => !keep.has(p) && p !== path);
      if (!victim) break;
      slot.recent = slot.recent.filter((p) => p !== victim);
      await client.close(victim);
    }
    return version;
  }

  /** Paths open on the server of `language` (for tests and the TUI). */
  openDocuments(language: string): string[] {
    return [...(this.slots.find((s) => s.plan.language === language)?.recent ?? [])];
  }

  /**
   * Starts now, in the background, every server whose language the project has a file of, and opens
   * one such file (found by the bounded project scan), so that a server's initial load happens while
   * the person types rather than during the first edit: typescript-language-server loads the project
   * only when a first file opens, which takes seconds. Called when the app starts; nothing waits for it.
   */
  startEarly(): void {
    for (const slot of this.slots) {
      if (slot.state !== 'idle' || this.closed) continue;
      // a language the project has no file of (a server configured for all projects) waits for its first file
      const path = firstFileWith(this.options.root, slot.plan.extensions);
      if (path === undefined) continue;
      void this.start(slot)
        .then((client) => {
          if (!client || slot.recent.length > 0) return;
          const text = readText(path);
          return text !== undefined ? this.openOn(slot, client, path, text).then(() => {}) : undefined;
        })
        .catch(() => {});
    }
  }

  /**
   * Waits for `client` to finish its initial load: until its start timeout counted from its start, or
   * `minimumMs` from now, whichever is later. True when it is ready.
   */
  private awaitReady(slot: Slot, client: LspClient, minimumMs: number, signal?: AbortSignal): Promise<boolean> {
    const untilStartTimeout = (slot.startedAt ?? Date.now()) + slot.plan.startTimeoutMs - Date.now();
    // a server that publishes nothing on its own is taken as loaded once its start timeout has passed
    if (untilStartTimeout <= 0) return Promise.resolve(true);
    return client.whenReady(Math.max(untilStartTimeout, minimumMs), signal);
  }

  /** The line an edit result gives for a server still loading; its diagnostics come in the next result. */
  private stillStarting(slot: Slot): string {
    return `the ${slot.plan.language} language server is still starting; diagnostics will follow in the next result`;
  }

  /**
   * `view` read `path`: its server is started if needed and the document opened, in the background
   * (nothing waits). `tag` names who asked (a session id) for a later `applyEdit`.
   */
  viewed(path: string, text: string, tag?: string): void {
    const slot = this.slotFor(path);
    if (!slot || this.closed) return;
    if (tag) this.lastTag = tag;
    void this.start(slot)
      .then((client) => (client ? this.openOn(slot, client, path, text) : undefined))
      .catch(() => {});
  }

  /**
   * Our tool changed files (`text` null: deleted): `didChange` (full text, next version) and
   * `didSave`, then waits for fresh diagnostics of each (pulled where the server supports it) until
   * its server's `diagnosticsTimeoutMs` (which covers a server still starting). Undefined when no
   * server serves any of the files.
   */
  async changed(
    files: { path: string; text: string | null }[],
    options: { tag?: string; signal?: AbortSignal } = {},
  ): Promise<ChangeReport | undefined> {
    if (options.tag) this.lastTag = options.tag;
    const served = files
      .map((f) => ({ ...f, slot: this.slotFor(f.path) }))
      .filter((f): f is typeof f & { slot: Slot } => f.slot !== undefined);
    if (served.length === 0 || this.closed) return undefined;
    const report: ChangeReport = {
      files: files.map((f) => f.path),
      added: [],
      addedElsewhere: [],
      kept: [],
      missing: [],
    };
    const keep = new Set(files.map((f) => f.path));
    const bySlot = new Map<Slot, typeof served>();
    for (const f of served) bySlot.set(f.slot, [...(bySlot.get(f.slot) ?? []), f]);
    await Promise.all(
      [...bySlot].map(async ([slot, list]) => {
        // the handshake is bounded by the start timeout (spawn errors, exits and garbage end it at once)
        const client = await withTimeout(this.start(slot), slot.plan.startTimeoutMs);
        if (!client) {
          const why =
            slot.state === 'failed'
              ? `the ${slot.plan.language} language server failed: ${slot.reason}`
              : this.stillStarting(slot);
          for (const f of list) if (f.text !== null) report.missing.push({ path: f.path, reason: why });
          if (slot.state !== 'failed') for (const f of list) if (f.text !== null) slot.owed.add(f.path);
          return;
        }
        // files owed from an earlier result: every problem they have now is reported as new
        const before = new Map<string, Diagnostic[]>(
          [...client.allDiagnostics()].filter(([p]) => !slot.owed.has(p)).map(([p, d]) => [p, problemsOnly(d)]),
        );
        const seq = client.reportSeq;
        const waits: { path: string; version: number; had: boolean }[] = [];
        for (const f of list) {
          if (f.text === null) {
            slot.recent = slot.recent.filter((p) => p !== f.path);
            await client.close(f.path);
            await client.filesChanged([{ path: f.path, type: 3 }]);
            continue;
          }
          const had = client.hasReported(f.path);
          waits.push({ path: f.path, version: await this.openOn(slot, client, f.path, f.text, keep), had });
        }
        // a server still loading the project reports once it is done: that is waited for (within its
        // start timeout from its start), then the usual diagnostics wait
        const ready =
          client.isReady || (await this.awaitReady(slot, client, slot.plan.diagnosticsTimeoutMs, options.signal));
        const deadline = Date.now() + (ready ? slot.plan.diagnosticsTimeoutMs : 0);
        await Promise.all(
          waits.map(async (w) => {
            const left = Math.max(0, deadline - Date.now());
            const fresh = client.pullsDiagnostics
              ? await client.pullDiagnostics(w.path, left)
              : await client.waitForDiagnostics(w.path, seq, w.version, left, SETTLE_MS, options.signal);
            if (!fresh) {
              if (options.signal?.aborted) return;
              if (!ready) slot.owed.add(w.path);
              report.missing.push({
                path: w.path,
                reason: ready
                  ? `the ${slot.plan.language} language server did not report within ${slot.plan.diagnosticsTimeoutMs} ms`
                  : this.stillStarting(slot),
              });
              return;
            }
            slot.owed.delete(w.path);
            const { added, kept } = newSince(before.get(w.path) ?? [], problemsOnly(client.diagnosticsOf(w.path)));
            report.added.push(...added);
            report.kept.push(...kept);
          }),
        );
        for (const [path, now] of client.allDiagnostics()) {
          if (keep.has(path)) continue;
          slot.owed.delete(path);
          report.addedElsewhere.push(...newSince(before.get(path) ?? [], problemsOnly(now)).added);
        }
      }),
    );
    this.emitChange();
    return report;
  }

  /**
   * The `diagnostics` tool: with `path`, its server is started (waited for up to its start timeout),
   * the file opened and its diagnostics awaited (up to `diagnosticsTimeoutMs` when none are known);
   * then every file's problems. Without a path, waits for servers still starting and reports what they know.
   */
  async query(path: string | undefined, signal?: AbortSignal): Promise<DiagnosticsQuery> {
    const notes: string[] = [];
    let file: Diagnostic[] = [];
    if (path) {
      const slot = this.slotFor(path);
      if (!slot) {
        notes.push(
          `No language server handles ${extname(path) || 'files without an extension'} files (servers: ${this.slots.map((s) => `${s.plan.language} ${s.plan.extensions.join(' ')}`).join('; ')}).`,
        );
      } else {
        const client = await this.start(slot);
        if (!client) {
          notes.push(`The ${slot.plan.language} language server failed: ${slot.reason}`);
        } else {
          const text = readText(path);
          if (text === undefined) {
            notes.push(`Cannot read ${path}.`);
          } else {
            const seq = client.reportSeq;
            const known = client.isOpen(path) && client.hasReported(path);
            const version = await this.openOn(slot, client, path, text);
            if (!known) {
              const ready =
                client.isReady || (await this.awaitReady(slot, client, slot.plan.diagnosticsTimeoutMs, signal));
              const waitMs = ready ? slot.plan.diagnosticsTimeoutMs : 0;
              const fresh = client.pullsDiagnostics
                ? await client.pullDiagnostics(path, waitMs)
                : await client.waitForDiagnostics(path, seq, version, waitMs, SETTLE_MS, signal);
              if (!fresh) {
                notes.push(
                  ready
                    ? `The ${slot.plan.language} language server did not report on ${path} within ${slot.plan.diagnosticsTimeoutMs} ms.`
                    : `The ${slot.plan.language} language server is still starting; ask again in a moment.`,
                );
              }
            }
            file = client.diagnosticsOf(path);
          }
        }
      }
    } else {
      await Promise.all(this.slots.flatMap((s) => (s.starting ? [s.starting] : [])));
      for (const s of this.slots)
        if (s.state === 'failed') notes.push(`The ${s.plan.language} language server failed: ${s.reason}`);
      if (this.slots.every((s) => s.state !== 'ready'))
        notes.push(
          'No language server has started yet: they start when a file of their language is viewed or changed. Pass file_path to check a file.',
        );
    }
    const project: Diagnostic[] = [];
    for (const s of this.slots) {
      for (const [p, list] of s.client?.allDiagnostics() ?? []) if (p !== path) project.push(...list);
    }
    this.emitChange();
    return { file, project, notes };
  }

  /** Files changed outside our tools (watcher): `didChangeWatchedFiles`, and `didChange` for open documents whose text differs. */
  async filesChangedOutside(changes: FileChange[]): Promise<void> {
    for (const slot of this.slots) {
      const client = slot.client;
      if (!client || client.isDead) continue;
      await client.filesChanged(changes);
      for (const c of changes) {
        if (!client.isOpen(c.path)) continue;
        if (c.type === 3) {
          slot.recent = slot.recent.filter((p) => p !== c.path);
          await client.close(c.path);
          continue;
        }
        const text = readText(c.path);
        if (text !== undefined) await client.change(c.path, text);
      }
    }
    this.emitChange();
  }

  /** Shuts every server down (`shutdown`, `exit`, then kill) and stops watching. */
  async close(): Promise<void> {
    this.closed = true;
    this.watcher?.close();
    await Promise.all(
      this.slots.map(async (s) => {
        const client = s.client ?? (s.starting ? await s.starting : undefined);
        await client?.shutdown();
        s.release?.();
      }),
    );
  }
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8')
      .replace(/\r\n/g, '\n')
      .replace(/^\uFEFF/, '');
  } catch {
    return undefined;
  }
}

function withTimeout<T>(promise: Promise<T | undefined>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms))),
  ]).finally(() => clearTimeout(timer));
}
