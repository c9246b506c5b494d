/**
 * Starts a project's custom tools for a running app: loads them into its registry
 * (`load.ts`), answers the permission requests plugins approved, then says every problem and override once: as `warning` events on the bus (the TUI's
 * status line and logs page) and through `write` (stderr with `-p`). An override that appears later
 * (an MCP server connecting after the load) is said when it appears.
 */
import type { AgentEvents } from '../agent/events.js';
import { resolveDataDir } from '../config/load.js';
import type { Config } from '../config/schema.js';
import type { EventBus } from '../events/bus.js';
import type { PermissionService } from '../permission/service.js';
import { overrideWarnings, PLUGIN_APPROVED, type ToolRegistry } from '../tools/registry.js';
import { loadCustomTools, type CustomToolsReport } from './load.js';
import type { Sandbox } from '../sandbox/types.js';

/** The parts of a running app (app/app.ts) that custom tools load into. */
export interface CustomToolsHost {
  /** the project directory */
  cwd: string;
  config: Config;
  tools: ToolRegistry;
  bus: EventBus<AgentEvents>;
  /** the project's own plugins and tool files stay unloaded: it is not trusted */
  projectCodeHeld?: boolean;
  permission?: Pick<PermissionService, 'onRequest' | 'respond'>;
  /** where declarative tools' programs run */
  sandbox?: Sandbox;
}

/** Loads the custom tools of `app`'s project; `write` gets each warning line too. Never throws. */
export async function startCustomTools(
  app: CustomToolsHost,
  options: {
    env?: Record<string, string | undefined>;
    write?: (line: string) => void;
    /** where a plugin's own log lines go, `[<plugin>] <message>` (default `write`) */
    writePluginLog?: (line: string) => void;
  } = {},
): Promise<CustomToolsReport> {
  const said = new Set<string>();
  const say = (line: string) => {
    if (said.has(line)) return;
    said.add(line);
    options.write?.(line);
    app.bus.emit('warning', { message: line });
  };
  const report = await loadCustomTools({
    projectDir: app.cwd,
    config: app.config,
    registry: app.tools,
    bus: app.bus,
    cacheDir: resolveDataDir(app.config, app.cwd),
    env: options.env,
    // an untrusted project's own plugins and tool files do not load (the user's do)
    skipProjectFiles: app.projectCodeHeld,
    sandbox: app.sandbox,
    onLog: (level, message, plugin) => {
      // a plugin's info lines are for debugging; its warnings and errors are said like ours, under its name
      if (level === 'info' && !app.config.debug) return;
      if (plugin === undefined) {
        if (level !== 'info') say(message);
        else options.write?.(message);
        return;
      }
      (options.writePluginLog ?? options.write)?.(message);
      if (level !== 'info') app.bus.emit('warning', { message });
    },
  });
  for (const line of report.failed) say(line);
  for (const line of report.warnings) say(line);
  for (const line of report.overrides) say(line);
  // a request a plugin's permission.ask allowed passed the rules (deny rules hold) and would now ask the person: answer it
  app.permission?.onRequest((request) => {
    if (PLUGIN_APPROVED.has(request.params)) app.permission!.respond(request.id, 'allow');
  });
  app.tools.onChange(() => {
    for (const line of overrideWarnings(app.tools)) say(line);
  });
  return report;
}
