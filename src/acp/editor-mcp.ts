/**
 * The MCP servers an editor passes in `session/new` and `session/load`, scoped to the
 * sessions that passed them: their tools are offered to those sessions only, and a server stops once
 * no session that passed it is open any more (`session/close`, or the process ending). The servers of
 * `.opencode.json` are the folder's and offered to every session.
 *
 * One server runs per name and folder: sessions passing the same name with the same settings (an
 * editor passes its servers to every session) share it; a different server under a name already in
 * use by another session is not started for the later session (named in the log: give it another
 * name); a session that alone uses a server and passes it again with other settings (`session/load`)
 * gets it restarted with those.
 */
import type { McpServerConfig } from '../config/schema.js';
import type { McpService } from '../mcp/service.js';

interface EditorServer {
  /** the settings it was started with (JSON), to tell the same server from another of its name */
  settings: string;
  /** the ACP sessions that passed it */
  sessions: Set<string>;
}

export class EditorMcpServers {
  private readonly servers = new Map<string, EditorServer>();

  constructor(
    private readonly mcp: McpService,
    private readonly log: (line: string) => void,
  ) {}

  /**
   * Joins `servers` (by name) for the ACP session `sessionId`, in place of what it passed before (a
   * `session/load` of an open session): servers it no longer passes are left, and stopped when no
   * session needs them. Resolves once those are stopped.
   */
  async join(sessionId: string, servers: Record<string, McpServerConfig>): Promise<void> {
    const passed = new Set<string>();
    const added: Record<string, McpServerConfig> = {};
    const replaced: string[] = [];
    for (const [name, config] of Object.entries(servers)) {
      const settings = JSON.stringify(config);
      const running = this.servers.get(name);
      if (running) {
        if (running.settings === settings) {
          running.sessions.add(sessionId);
          passed.add(name);
        } else if (running.sessions.size === 1 && running.sessions.has(sessionId)) {
          // its own server passed again with other settings (session/load): restarted with these
          replaced.push(name);
          this.servers.set(name, { settings, sessions: new Set([sessionId]) });
          passed.add(name);
          added[name] = config;
        } else {
          this.log(
            `MCP server "${name}" of session ${sessionId} differs from the one of that name another session runs: not started for this session (give it another name)`,
          );
        }
        continue;
      }
      if (this.mcp.servers().some((s) => s.name === name)) {
        this.log(
          `MCP server "${name}" is configured in .opencode.json for ${sessionId}'s folder: the configured one is kept`,
        );
        continue;
      }
      this.servers.set(name, { settings, sessions: new Set([sessionId]) });
      passed.add(name);
      added[name] = config;
    }
    if (replaced.length > 0) {
      this.log(
        `MCP server${replaced.length === 1 ? '' : 's'} ${replaced.map((n) => `"${n}"`).join(', ')} of session ${sessionId} passed again with other settings: restarted with them`,
      );
      await this.mcp.remove(replaced);
    }
    if (Object.keys(added).length > 0) this.mcp.add(added);
    await this.stopUnneeded(sessionId, passed);
  }

  /** The session ended: the servers only it passed are stopped (resolves once they are). */
  leave(sessionId: string): Promise<void> {
    return this.stopUnneeded(sessionId, new Set());
  }

  /**
   * Whether the tools of the MCP server `server` are offered to the ACP session `sessionId`: a
   * configured server's (or an unknown name's) to every session, an editor's to the sessions that passed it.
   */
  offers(server: string, sessionId: string | undefined): boolean {
    const editor = this.servers.get(server);
    return !editor || (sessionId !== undefined && editor.sessions.has(sessionId));
  }

  /** `sessionId` keeps only `kept`; servers left without a session are stopped. */
  private async stopUnneeded(sessionId: string, kept: ReadonlySet<string>): Promise<void> {
    const unneeded: string[] = [];
    for (const [name, server] of this.servers) {
      if (kept.has(name)) continue;
      server.sessions.delete(sessionId);
      if (server.sessions.size === 0) {
        this.servers.delete(name);
        unneeded.push(name);
      }
    }
    if (unneeded.length > 0) await this.mcp.remove(unneeded);
  }
}
