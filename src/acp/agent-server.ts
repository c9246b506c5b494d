/**
 * The ACP agent (`opencode acp`): the handlers of the official SDK's agent app, on top of
 * the same core as `-p` (one {@link App} per project folder). Methods: `initialize`, `authenticate`,
 * `session/new`, `session/load`, `session/list`, `session/prompt`, `session/cancel`, `session/close`;
 * to the editor: `session/update` (message and thought chunks, tool calls and their updates, commands,
 * titles, context usage after each prompt), `session/request_permission` (our permission service's
 * requests), and `fs/read_text_file` / `fs/write_text_file` when the editor offers them (the file
 * tools read and write its buffers: `editor-files.ts`).
 *
 * Protocol errors (JSON-RPC codes): invalid params -32602 (a relative cwd, audio, a custom command
 * without its values), invalid request -32600 (a prompt while one runs), resource not found -32002
 * (an unknown session), auth required -32000 (no provider credential), internal error -32603 (a
 * provider or storage failure, with its message). The SDK itself answers malformed params (-32602),
 * unknown methods (-32601) and requests before `initialize` (-32600).
 */
import { dirname, isAbsolute, resolve } from 'node:path';
import {
  agent,
  methods,
  PROTOCOL_VERSION,
  RequestError,
  type AgentApp,
  type AgentContext,
  type ClientCapabilities,
  type ListSessionsResponse,
  type PromptResponse,
  type SessionUpdate,
} from '@agentclientprotocol/sdk';
import { SessionBusyError, type RunResult } from '../agent/agent.js';
import { INIT_PROMPT, markProjectInitialized } from '../agent/init-prompt.js';
import { holdSession, releaseSession } from '../db/session-in-use.js';
import { PROMPT_MCP_WAIT_MS } from '../app/mcp-wait.js';
import type { PermissionRequest } from '../permission/types.js';
import type { ProviderSettings } from '../provider/settings.js';
import { PLUGIN_APPROVED } from '../tools/registry.js';
import type { CustomCommand } from '../custom/commands.js';
import { VERSION } from '../version.js';
import { authenticationProblem, authMethods } from './auth.js';
import { availableCommands, CommandInputError, parseCommand } from './commands.js';
import { createEditorFiles, editorFsTimeoutMs } from './editor-files.js';
import { decisionOf, permissionOptions, permissionToolCall } from './permission-options.js';
import { editorMcpServers, openProject, ProjectOpenError, type Project } from './project.js';
import { promptMessage, PromptContentError } from './prompt-content.js';
import { replaySession, SessionStream } from './session-stream.js';
import { STOP_REASONS } from './stop-reason.js';

export interface AcpServerOptions {
  env: NodeJS.ProcessEnv;
  /** provider settings of the folder the editor started us in: what `initialize` lists as auth methods */
  launchSettings: ProviderSettings;
  /** the folder the editor started us in (absolute): `session/list` without a cwd lists its sessions */
  launchCwd: string;
  /** `-m provider/model` for every session */
  model?: string;
  /** `--profile name` for every session */
  profile?: string;
  debug?: boolean;
  /** `--trust`: the projects' own code runs even when they are not trusted */
  trust?: boolean;
  /** a line for stderr */
  log: (line: string) => void;
}

/** One ACP session: a root session of a project's database. */
interface AcpSession {
  id: string;
  project: Project;
  stream: SessionStream;
  /** aborts the prompt running now */
  controller?: AbortController;
  title?: string;
  unsubscribe: () => void;
}

/** Depth bound of the parent walk from a sub-agent's session to its root. */
const MAX_SESSION_DEPTH = 16;

export class AcpServer {
  private clientCapabilities: ClientCapabilities = {};
  private client: AgentContext | undefined;
  private readonly projects = new Map<string, Promise<Project>>();
  private readonly sessions = new Map<string, AcpSession>();
  /** updates go out in order; a prompt's answer waits for its updates */
  private sending: Promise<void> = Promise.resolve();

  constructor(private readonly opts: AcpServerOptions) {}

  /** The SDK agent app with our handlers; `connect` it to a stream. */
  app(): AgentApp {
    return agent({ name: 'opencode' })
      .onConnect((connection) => {
        this.client = connection.client;
      })
      .onRequest(methods.agent.initialize, ({ params }) => {
        this.clientCapabilities = params.clientCapabilities ?? {};
        return {
          // the only version we speak; a client asking for another decides whether to go on (ACP "Initialization")
          protocolVersion: PROTOCOL_VERSION,
          agentCapabilities: {
            loadSession: true,
            promptCapabilities: { image: true, audio: false, embeddedContext: true },
            mcpCapabilities: { http: true, sse: true },
            sessionCapabilities: { list: {}, close: {} },
          },
          authMethods: authMethods(this.opts.launchSettings),
          agentInfo: { name: 'opencode', title: 'OpenCode', version: VERSION },
        };
      })
      .onRequest(methods.agent.authenticate, ({ params }) => {
        const problem = authenticationProblem(params.methodId, this.opts.launchSettings);
        if (problem) throw RequestError.authRequired(undefined, problem);
        return {};
      })
      .onRequest(methods.agent.session.new, async ({ params }) => {
        const project = await this.project(params.cwd);
        const session = project.app.db.sessions.create({ title: 'New Session' });
        this.attach(project, session.id);
        await project.editorMcp.join(session.id, this.editorServers(project, session.id, params.mcpServers));
        // after the answer, so the editor knows the session the update is for
        setImmediate(() => void this.advertiseCommands(session.id));
        return { sessionId: session.id };
      })
      .onRequest(methods.agent.session.load, async ({ params }) => {
        const project = await this.project(params.cwd);
        const stored = project.app.db.sessions.get(params.sessionId);
        if (!stored || stored.parentSessionId) throw RequestError.sessionNotFound(params.sessionId);
        if (this.sessions.get(stored.id)?.controller) {
          throw RequestError.invalidRequest(
            undefined,
            `session ${stored.id} is answering a prompt: cancel it before loading it again`,
          );
        }
        this.sessions.get(stored.id)?.unsubscribe();
        const session = this.attach(project, stored.id);
        // in place of what it passed when it was opened before in this process
        await project.editorMcp.join(stored.id, this.editorServers(project, stored.id, params.mcpServers));
        session.title = stored.title;
        // ACP: the whole conversation is replayed as updates before the answer
        replaySession(project.app.db.messages.list(stored.id), project.cwd, (update) => this.send(stored.id, update));
        await this.sending;
        setImmediate(() => void this.advertiseCommands(stored.id));
        return {};
      })
      .onRequest(methods.agent.session.list, async ({ params }) => {
        const project = await this.project(params.cwd ?? this.opts.launchCwd);
        return listSessions(project, params.cursor ?? undefined);
      })
      .onRequest(methods.agent.session.prompt, async ({ params, signal }) => {
        const session = this.session(params.sessionId);
        const controller = new AbortController();
        // `$/cancel_request` of this prompt cancels it as session/cancel does
        const onAbort = () => controller.abort();
        signal.addEventListener('abort', onAbort, { once: true });
        try {
          return await this.prompt(session, params.prompt, controller);
        } finally {
          signal.removeEventListener('abort', onAbort);
        }
      })
      .onRequest(methods.agent.session.close, async ({ params }) => {
        // ACP: cancel its work as session/cancel does, then free what it holds; the stored session stays (session/load reopens it)
        const session = this.session(params.sessionId);
        session.controller?.abort();
        session.project.app.coder.cancel(session.id);
        session.unsubscribe();
        await session.project.editorMcp.leave(session.id);
        return {};
      })
      .onNotification(methods.agent.session.cancel, ({ params }) => {
        const session = this.sessions.get(params.sessionId);
        if (!session) return;
        session.controller?.abort();
        session.project.app.coder.cancel(session.id);
      });
  }

  /** Cancels every run, lets go of every session and closes every project (shells, MCP servers, databases). */
  async close(): Promise<void> {
    const projects = await Promise.allSettled([...this.projects.values()]);
    for (const p of projects) if (p.status === 'fulfilled') p.value.app.cancelAll();
    await Promise.allSettled(projects.flatMap((p) => (p.status === 'fulfilled' ? [p.value.app.close()] : [])));
    // after the runs wrote their last messages (the exit hook would too; a slow close must not keep them)
    for (const session of [...this.sessions.values()]) session.unsubscribe();
  }

  private async prompt(
    session: AcpSession,
    blocks: Parameters<typeof promptMessage>[0],
    controller: AbortController,
  ): Promise<PromptResponse> {
    const { project } = session;
    const { app } = project;
    if (session.controller || app.coder.isBusy(session.id)) {
      throw RequestError.invalidRequest(
        undefined,
        'this session is still answering the previous prompt: wait for its answer or send session/cancel',
      );
    }
    // held from here: a second prompt arriving while this one reads the commands is refused above
    session.controller = controller;
    try {
      let message;
      let command;
      try {
        message = promptMessage(blocks, project.cwd);
        command = parseCommand(message.text, await project.commands());
      } catch (err) {
        if (err instanceof PromptContentError || err instanceof CommandInputError)
          throw RequestError.invalidParams(undefined, err.message);
        throw err;
      }
      // a prompt needs its tools on the first request, as -p: the MCP servers (the editor's too) get a bounded wait
      await Promise.all([project.customTools, app.mcp.waitForStartup(PROMPT_MCP_WAIT_MS)]);
      if (controller.signal.aborted) return { stopReason: 'cancelled' };
      if (command?.kind === 'builtin' && command.name === 'compact')
        return await this.compact(session, controller.signal);
      const text =
        command?.kind === 'builtin' ? INIT_PROMPT : command?.kind === 'custom' ? command.prompt : message.text;
      let result: RunResult;
      try {
        result = await app.coder.run(session.id, text, { attachments: message.attachments, signal: controller.signal });
      } catch (err) {
        if (err instanceof SessionBusyError) throw RequestError.invalidRequest(undefined, err.message);
        throw RequestError.internalError(undefined, (err as Error).message);
      }
      if (command?.kind === 'builtin' && command.name === 'init' && result.reason === 'end_turn') {
        try {
          markProjectInitialized(project.dataDir);
        } catch (err) {
          project.log(`warning: cannot record that the project was initialised: ${(err as Error).message}`);
        }
      }
      this.reportUsage(session);
      const stop = STOP_REASONS[result.reason];
      if (stop === 'error') throw RequestError.internalError(undefined, result.error ?? 'the run failed');
      return { stopReason: stop };
    } finally {
      session.controller = undefined;
      await this.sending;
    }
  }

  /** `/compact`: the summarizer writes the summary; the editor is told in one message. */
  private async compact(session: AcpSession, signal: AbortSignal): Promise<PromptResponse> {
    try {
      await session.project.app.compact(session.id, signal);
    } catch (err) {
      if (signal.aborted) return { stopReason: 'cancelled' };
      throw RequestError.internalError(undefined, `cannot compact the session: ${(err as Error).message}`);
    }
    this.send(session.id, {
      sessionUpdate: 'agent_message_chunk',
      content: { type: 'text', text: 'Session compacted: later requests send the summary and what follows it.' },
    });
    return { stopReason: 'end_turn' };
  }

  /** The project of `cwd`, opened on first use (one per folder for the life of the process). */
  private async project(requested: string): Promise<Project> {
    // `/a/b/` and `/a/b` are one project (one database); a relative path is refused by openProject
    const cwd = isAbsolute(requested) ? resolve(requested) : requested;
    let pending = this.projects.get(cwd);
    if (!pending) {
      const fs = this.clientCapabilities.fs;
      const editorFiles = createEditorFiles({
        client: () => this.client,
        sessionFor: (id) => (this.sessions.get(id) ?? this.rootOfAny(id))?.id ?? id,
        flush: () => this.sending,
        canRead: fs?.readTextFile === true,
        canWrite: fs?.writeTextFile === true,
        timeoutMs: editorFsTimeoutMs(this.opts.env),
      });
      pending = openProject(cwd, {
        env: this.opts.env,
        model: this.opts.model,
        profile: this.opts.profile,
        debug: this.opts.debug,
        trust: this.opts.trust,
        editorFiles,
        log: this.opts.log,
      }).then((project) => {
        project.app.permission.onRequest((request) => this.askPermission(project, request));
        // an editor's MCP server's tools go to the sessions that passed it (a sub-agent's: its root's)
        project.app.tools.setSessionFilter((entry, name, sessionId) => {
          if (entry.source !== 'mcp') return true;
          const server = project.app.mcp.toolSource(name)?.server;
          return server === undefined || project.editorMcp.offers(server, this.rootSession(project, sessionId)?.id);
        });
        return project;
      });
      this.projects.set(cwd, pending);
      // a folder that could not be opened is tried afresh next time (the person may fix the config)
      pending.catch(() => this.projects.delete(cwd));
    }
    try {
      return await pending;
    } catch (err) {
      if (!(err instanceof ProjectOpenError)) throw RequestError.internalError(undefined, (err as Error).message);
      if (err.kind === 'params') throw RequestError.invalidParams(undefined, err.message);
      if (err.kind === 'auth') throw RequestError.authRequired(undefined, err.message);
      throw RequestError.internalError(undefined, err.message);
    }
  }

  /** Subscribes the session's stream to the project's events. */
  private attach(project: Project, sessionId: string): AcpSession {
    const stream = new SessionStream(project.cwd, (update) => this.send(sessionId, update));
    const { bus } = project.app;
    const session: AcpSession = { id: sessionId, project, stream, unsubscribe: () => {} };
    // marked in use, as the TUI and -p mark theirs: `opencode sessions delete` refuses it without
    // --force while the editor has it open (released on session/close, at close() and at exit)
    const dataDir = dirname(project.app.db.path);
    holdSession(dataDir, sessionId, 'acp');
    const offs = [
      bus.on('message.created', (e) => e.message.sessionId === sessionId && stream.message(e.message)),
      bus.on('message.updated', (e) => e.message.sessionId === sessionId && stream.message(e.message)),
      bus.on('tool.started', (e) => e.sessionId === sessionId && stream.toolStarted(e.toolCallId)),
      bus.on('tool.progress', (e) => e.sessionId === sessionId && stream.toolProgress(e.toolCallId, e.text)),
      bus.on('session.updated', (e) => e.sessionId === sessionId && this.titleChanged(session)),
    ];
    session.unsubscribe = () => {
      for (const off of offs) off();
      this.sessions.delete(sessionId);
      releaseSession(dataDir, sessionId);
    };
    this.sessions.set(sessionId, session);
    return session;
  }

  private session(sessionId: string): AcpSession {
    const session = this.sessions.get(sessionId);
    if (!session) throw RequestError.sessionNotFound(sessionId);
    return session;
  }

  /** Queues one `session/update`; a failed send (the editor went away) is logged. */
  private send(sessionId: string, update: SessionUpdate): void {
    const client = this.client;
    if (!client) return;
    this.sending = this.sending
      .then(() => client.notify(methods.client.session.update, { sessionId, update }))
      .catch((err: unknown) => this.opts.log(`cannot send an update: ${(err as Error).message}`));
  }

  private async advertiseCommands(sessionId: string): Promise<void> {
    const session = this.sessions.get(sessionId);
    if (!session) return;
    let custom: CustomCommand[];
    try {
      custom = await session.project.commands();
    } catch (err) {
      session.project.log(`warning: cannot read the custom commands: ${(err as Error).message}`);
      custom = [];
    }
    this.send(sessionId, { sessionUpdate: 'available_commands_update', availableCommands: availableCommands(custom) });
  }

  /** The context the session fills now, of the coder model's window, and its cost so far (`usage_update`). */
  private reportUsage(session: AcpSession): void {
    const { app } = session.project;
    const stored = app.db.sessions.get(session.id);
    const size = app.coderModel.contextWindowTokens;
    if (!stored || size <= 0) return;
    this.send(session.id, {
      sessionUpdate: 'usage_update',
      used: stored.contextTokens,
      size,
      cost: { amount: stored.costUsd, currency: 'USD' },
    });
  }

  /** A generated title is told to the editor once (`session_info_update`). */
  private titleChanged(session: AcpSession): void {
    const title = session.project.app.db.sessions.get(session.id)?.title;
    if (!title || title === session.title || title === 'New Session') return;
    session.title = title;
    this.send(session.id, { sessionUpdate: 'session_info_update', title });
  }

  /** The editor's servers of `session/new` or `session/load` in our shape; a name passed twice is logged (its first server is used). */
  private editorServers(
    project: Project,
    sessionId: string,
    servers: Parameters<typeof editorMcpServers>[0],
  ): ReturnType<typeof editorMcpServers> {
    return editorMcpServers(servers, (name) =>
      project.log(
        `MCP server "${name}" is passed more than once for session ${sessionId}: the first is used (give each server its own name)`,
      ),
    );
  }

  /** The ACP session a request of `sessionId` belongs to: itself, or for a sub-agent its root. */
  private rootSession(project: Project, sessionId: string): AcpSession | undefined {
    let id: string | null | undefined = sessionId;
    for (let depth = 0; id && depth < MAX_SESSION_DEPTH; depth++) {
      const session = this.sessions.get(id);
      if (session && session.project === project) return session;
      id = project.app.db.sessions.get(id)?.parentSessionId;
    }
    return undefined;
  }

  /**
   * Asks the editor (`session/request_permission`) and answers the permission service. A request
   * withdrawn meanwhile (the run was cancelled) cancels the editor's question.
   */
  private askPermission(project: Project, request: PermissionRequest): void {
    // a plugin approved it in the person's place (custom/start.ts answers it)
    if (PLUGIN_APPROVED.has(request.params)) return;
    const session = this.rootSession(project, request.sessionId);
    const client = this.client;
    if (!session || !client) {
      project.log(`permission request of session ${request.sessionId} has no editor session to ask: denied`);
      project.app.permission.respond(request.id, 'deny');
      return;
    }
    const withdrawn = new AbortController();
    let answered = false;
    const off = project.app.permission.onResolved((id) => {
      if (id === request.id && !answered) withdrawn.abort();
    });
    const toolCall = permissionToolCall(
      request,
      request.toolCallId !== undefined && session.stream.knows(request.toolCallId),
    );
    // the tool call's updates so far go first, so the editor knows the call it is asked about
    void this.sending
      .then(() =>
        client.request(
          methods.client.session.requestPermission,
          { sessionId: session.id, toolCall, options: permissionOptions(request) },
          { cancellationSignal: withdrawn.signal, stopWaitingOnCancel: true },
        ),
      )
      .then((response) => {
        answered = true;
        project.app.permission.respond(request.id, decisionOf(response.outcome));
      })
      .catch((err: unknown) => {
        if (withdrawn.signal.aborted) return;
        project.log(`permission request failed, denied: ${(err as Error).message}`);
        project.app.permission.respond(request.id, 'deny');
      })
      .finally(off);
  }

  private rootOfAny(sessionId: string): AcpSession | undefined {
    for (const session of this.sessions.values()) {
      const root = this.rootSession(session.project, sessionId);
      if (root) return root;
    }
    return undefined;
  }
}

/** Sessions listed per `session/list` page. */
export const SESSIONS_PAGE_SIZE = 50;

/**
 * One page of the project's top-level sessions, most recently updated first; the cursor is the
 * position of the next page.
 * @throws RequestError invalid params for a cursor we did not give
 */
function listSessions(project: Project, cursor: string | undefined): ListSessionsResponse {
  const start = cursor === undefined ? 0 : Number(cursor);
  if (!Number.isSafeInteger(start) || start < 0)
    throw RequestError.invalidParams(undefined, `unknown cursor "${cursor}": pass the nextCursor of the previous page`);
  const all = project.app.db.sessions.list().sort((a, b) => b.updatedAt - a.updatedAt);
  const page = all.slice(start, start + SESSIONS_PAGE_SIZE);
  return {
    sessions: page.map((s) => ({
      sessionId: s.id,
      cwd: project.cwd,
      title: s.title,
      updatedAt: new Date(s.updatedAt).toISOString(),
    })),
    ...(start + SESSIONS_PAGE_SIZE < all.length ? { nextCursor: String(start + SESSIONS_PAGE_SIZE) } : {}),
  };
}
