/**
 * The zod-free reader of a few config keys (`config/light.ts`, used by `opencode stats`): on every
 * config the full loader accepts, it must give the same data directory, `tools`, `plugins` and MCP
 * server names; on every config where those keys could be wrong it must give undefined (the caller then
 * runs the full loader, which refuses the file).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, resolveDataDir } from '../../src/config/load.js';
import { readLightConfig } from '../../src/config/light.js';

interface Setup {
  /** `~/.opencode.json` */
  home?: string;
  /** `$XDG_CONFIG_HOME/opencode/.opencode.json` */
  xdg?: string;
  /** `<project>/.opencode.json` */
  project?: string;
}

function setUp(files: Setup): { cwd: string; env: Record<string, string> } {
  const root = mkdtempSync(join(tmpdir(), 'opencode-light-'));
  const home = join(root, 'home');
  const xdg = join(root, 'xdg');
  const cwd = join(root, 'project');
  for (const dir of [home, join(xdg, 'opencode'), cwd]) mkdirSync(dir, { recursive: true });
  if (files.home !== undefined) writeFileSync(join(home, '.opencode.json'), files.home);
  if (files.xdg !== undefined) writeFileSync(join(xdg, 'opencode', '.opencode.json'), files.xdg);
  if (files.project !== undefined) writeFileSync(join(cwd, '.opencode.json'), files.project);
  return { cwd, env: { HOME: home, XDG_CONFIG_HOME: xdg } };
}

/** What the full loader says about the keys the light reader takes. */
function fromFullLoader(cwd: string, env: Record<string, string>) {
  const { config, files } = loadConfig({ cwd, env });
  return {
    files,
    dataDir: resolveDataDir(config, cwd),
    tools: config.tools,
    plugins: config.plugins,
    mcpServerNames: Object.keys(config.mcpServers),
  };
}

describe('readLightConfig', () => {
  // each row: a set of files the full loader accepts (some with warnings), and what the keys come to
  const accepted: [
    string,
    Setup,
    { dataDir: string; tools: Record<string, boolean>; plugins: string[]; mcpServerNames: string[] },
  ][] = [
    ['no file: the defaults', {}, { dataDir: '.opencode', tools: {}, plugins: [], mcpServerNames: [] }],
    [
      'a project file with every key',
      {
        project: JSON.stringify({
          data: { directory: 'store' },
          tools: { fetch: false },
          plugins: ['p1'],
          mcpServers: { git: { command: 'git-mcp' } },
        }),
      },
      { dataDir: 'store', tools: { fetch: false }, plugins: ['p1'], mcpServerNames: ['git'] },
    ],
    [
      'global and project merged: objects key by key, arrays replaced',
      {
        home: JSON.stringify({
          data: { directory: '/var/oc' },
          tools: { fetch: false, bash: true },
          plugins: ['a', 'b'],
          mcpServers: { one: { command: 'x' } },
        }),
        project: JSON.stringify({ tools: { bash: false }, plugins: ['c'], mcpServers: { two: { command: 'y' } } }),
      },
      { dataDir: '/var/oc', tools: { fetch: false, bash: false }, plugins: ['c'], mcpServerNames: ['one', 'two'] },
    ],
    [
      'JSONC: comments and trailing commas',
      { project: '// ours\n{\n  "tools": { "sourcegraph": false, }, /* no plugins */\n}\n' },
      { dataDir: '.opencode', tools: { sourcegraph: false }, plugins: [], mcpServerNames: [] },
    ],
    [
      'the XDG file when there is none in HOME',
      { xdg: JSON.stringify({ data: { directory: 'from-xdg' } }) },
      { dataDir: 'from-xdg', tools: {}, plugins: [], mcpServerNames: [] },
    ],
    [
      'the HOME file wins over the XDG one (the first found)',
      { home: JSON.stringify({ tools: { ls: false } }), xdg: JSON.stringify({ tools: { view: false } }) },
      { dataDir: '.opencode', tools: { ls: false }, plugins: [], mcpServerNames: [] },
    ],
    [
      'unknown keys and a server the loader disables: warnings there, the same keys here',
      {
        project: JSON.stringify({
          colour: 'red',
          data: { directory: 'd', extra: 1 },
          mcpServers: { bad: { type: 'sse' } },
        }),
      },
      { dataDir: 'd', tools: {}, plugins: [], mcpServerNames: ['bad'] },
    ],
  ];
  it.each(accepted)('%s', (_name, files, want) => {
    const { cwd, env } = setUp(files);
    const light = readLightConfig({ cwd, env });
    const full = fromFullLoader(cwd, env);
    expect(light).toBeDefined();
    expect({ ...light!, files: light!.files.map((f) => f.file) }).toEqual(full);
    expect({
      dataDir: light!.dataDir,
      tools: light!.tools,
      plugins: light!.plugins,
      mcpServerNames: light!.mcpServerNames,
    }).toEqual({
      ...want,
      dataDir: resolve(cwd, want.dataDir),
    });
  });

  it('reads a project in the home folder once', () => {
    const { env } = setUp({ home: JSON.stringify({ plugins: ['x'] }) });
    const light = readLightConfig({ cwd: env.HOME, env });
    expect(light?.files.map((f) => f.file)).toEqual([join(env.HOME, '.opencode.json')]);
    expect(light?.plugins).toEqual(['x']);
  });

  // each row: a file the full loader refuses because of a key the light reader takes, or its syntax
  const refused: [string, string][] = [
    ['not JSON', '{ "tools": '],
    ['a list at the top level', '[]'],
    ['data not an object', '{ "data": ".opencode" }'],
    ['data.directory not a string', '{ "data": { "directory": 3 } }'],
    ['a tool switch that is not a boolean', '{ "tools": { "fetch": "off" } }'],
    ['tools not an object', '{ "tools": ["fetch"] }'],
    ['plugins not a list', '{ "plugins": "audit" }'],
    ['a plugin name not a string', '{ "plugins": [1] }'],
    ['mcpServers not an object', '{ "mcpServers": [] }'],
  ];
  it.each(refused)('leaves it to the full loader: %s', (_name, text) => {
    const { cwd, env } = setUp({ project: text });
    expect(readLightConfig({ cwd, env })).toBeUndefined();
    expect(() => loadConfig({ cwd, env })).toThrow(ConfigError);
  });

  it('leaves a bad global file to the full loader even when the project file sets the key right', () => {
    const { cwd, env } = setUp({ home: '{ "tools": { "fetch": 0 } }', project: '{ "tools": { "fetch": false } }' });
    expect(readLightConfig({ cwd, env })).toBeUndefined();
    expect(() => loadConfig({ cwd, env })).toThrow(ConfigError);
  });

  it('leaves an unreadable file to the full loader', () => {
    const { cwd, env } = setUp({});
    // a folder where the file should be: reading it fails with EISDIR
    mkdirSync(join(cwd, '.opencode.json'));
    expect(readLightConfig({ cwd, env })).toBeUndefined();
    expect(() => loadConfig({ cwd, env })).toThrow(ConfigError);
  });
});
