/**
 * The layer check (`npm run lint:layers`): imports between the folders of src/ point down the layers,
 * never up and never sideways, and no file reaches itself through its imports. Type-only imports
 * count: a type names what its layer owns as much as a value does.
 *
 * The layers, lowest first. A folder may import the folders of the layers below its own, and nothing
 * of its own layer but itself. A file directly in src/ is a folder of its own.
 */
const LAYERS = [
  {
    name: 'base',
    parts: ['events', 'message.ts', 'version.ts', 'config', 'startup-trace.ts', 'process-identity.ts', 'abort.ts'],
    why: 'words everything speaks: the event bus, messages, the version, the settings, the start-up trace, which process a pid is, cancellation',
  },
  {
    name: 'storage and outside services',
    parts: ['db', 'provider', 'sandbox'],
    why: 'SQLite stores, the model providers behind one stream, the OS sandbox: each stands alone on the base',
  },
  {
    name: 'policy and servers',
    parts: ['permission', 'lsp', 'session-io'],
    why: 'the permission gate (rules, trust) and the language servers run inside the sandbox; session export reads the stores',
  },
  {
    name: 'tools',
    parts: ['tools'],
    why: 'the tool kernel, the registry and the built-in tools: every call passes the permission gate, writes record file history',
  },
  {
    name: 'agent',
    parts: ['agent'],
    why: 'the agent loop: a provider stream, the registry’s tools, the session store, events',
  },
  {
    name: 'services around the agent',
    parts: ['mcp', 'plugin', 'undo'],
    why: 'MCP and plugin tools join the registry and hook the agent’s events; undo holds the agent’s run lock',
  },
  {
    name: 'project code',
    parts: ['custom'],
    why: 'loads a project’s own tools, commands and plugins into the registry',
  },
  {
    name: 'app',
    parts: ['app'],
    why: 'the object holding one working directory’s services, and the one start-up path every front end calls',
  },
  {
    name: 'front ends',
    parts: ['tui', 'acp', 'api'],
    why: 'the terminal UI, the Agent Client Protocol server, the runtime API: each knows the app and the core, never another front end',
  },
  {
    name: 'command',
    parts: ['cli'],
    why: 'the opencode command: parses the arguments and starts the front end they ask for (the TUI, -p, acp)',
  },
];

/** A regular expression matching the files of one part (a folder, or a file directly in src/). */
function partPath(part) {
  const escaped = part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return part.endsWith('.ts') ? `^src/${escaped}$` : `^src/${escaped}/`;
}

/** One rule per part: the parts of its own layer and of the layers above are off limits. */
const layerRules = LAYERS.flatMap((layer, index) =>
  layer.parts.flatMap((part) => {
    const others = LAYERS.slice(index)
      .flatMap((l) => l.parts)
      .filter((p) => p !== part);
    if (others.length === 0) return [];
    return {
      name: `layer-${part.replace(/\.ts$/, '')}`,
      comment: `src/${part} is in the layer "${layer.name}" (${layer.why}); it may import only the layers below: ${
        LAYERS.slice(0, index)
          .map((l) => l.name)
          .join(', ') || 'none'
      }`,
      severity: 'error',
      from: { path: partPath(part) },
      to: { path: others.map(partPath).join('|') },
    };
  }),
);

/** Every part of every layer: a file of src/ outside them has no place in the order yet. */
const ALL_PARTS = LAYERS.flatMap((l) => l.parts)
  .map(partPath)
  .join('|');

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'a file that reaches itself through its imports: move what both sides need to the lower one',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    ...layerRules,
    {
      name: 'in-a-layer',
      comment: 'a folder or file of src/ that is in no layer: add it to LAYERS where it belongs',
      severity: 'error',
      from: { path: '^src/', pathNot: ALL_PARTS },
      to: {},
    },
    {
      name: 'in-a-layer',
      comment: 'an import of a folder or file of src/ that is in no layer: add it to LAYERS where it belongs',
      severity: 'error',
      from: {},
      to: { path: '^src/', pathNot: ALL_PARTS },
    },
    {
      name: 'ui-only-in-tui',
      comment:
        'Ink and React belong to the terminal UI: the core publishes events and plain functions, and -p, acp and the API start without a renderer',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/tui/' },
      to: { path: '(^|/)node_modules/(ink|ink-[^/]+|react|react-[^/]+)/' },
    },
    {
      name: 'tui-no-storage-or-provider-calls',
      comment:
        'the TUI reaches the database and the providers through the app’s services (tui/state/services.ts); their types it may name',
      severity: 'error',
      from: { path: '^src/tui/' },
      to: { path: '^src/(db|provider)/', dependencyTypesNot: ['type-only'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // type-only imports are part of the graph (TypeScript's own view, before it drops them)
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // ESM packages (ink) resolve through their "exports" as Node resolves them
    enhancedResolveOptions: {
      extensions: ['.ts', '.tsx', '.js', '.json'],
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
  },
};
