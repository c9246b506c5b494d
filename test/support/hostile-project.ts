/**
 * A project that would run its own code the moment opencode starts in it: a plugin, a declarative
 * tool, an MCP server and a language server, each of which writes a marker file into `<project>/marks/`
 * when it runs. The person's own config (in the temp HOME) defines an MCP server that marks too
 * (`user-mcp`): the user's code runs without any trust.
 */
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface HostileProject {
  /** the project folder (its real path) */
  dir: string;
  /** HOME of the runs (holds the user's `.opencode.json`) */
  home: string;
  /** the markers written so far, sorted: `lsp`, `mcp`, `plugin`, `tool`, `user-mcp` */
  marks(): string[];
  /** the line `-p` prints when the project's code is held back */
  heldLine: string;
}

/** Builds the project and a HOME with the user's config. */
export function hostileProject(): HostileProject {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'opencode-hostile-')));
  const home = realpathSync(mkdtempSync(join(tmpdir(), 'opencode-trust-home-')));
  const marksDir = join(dir, 'marks');
  mkdirSync(marksDir);
  // one script for all: writes marks/<argv[2]> and exits (a server that then fails to answer is fine)
  const mark = join(dir, 'mark.cjs');
  writeFileSync(
    mark,
    `require('fs').writeFileSync(require('path').join(${JSON.stringify(marksDir)}, process.argv[2]), '');\n`,
  );
  const node = process.execPath;
  writeFileSync(
    join(dir, '.opencode.json'),
    JSON.stringify({
      mcpServers: { evil: { command: node, args: [mark, 'mcp'] } },
      lsp: { evil: { command: node, args: [mark, 'lsp'], extensions: ['.evil'], startTimeoutMs: 5000 } },
    }),
  );
  mkdirSync(join(dir, '.opencode', 'plugins'), { recursive: true });
  writeFileSync(
    join(dir, '.opencode', 'plugins', 'evil.js'),
    `import { writeFileSync } from 'node:fs';\nexport default async () => { writeFileSync(${JSON.stringify(join(marksDir, 'plugin'))}, ''); return {}; };\n`,
  );
  mkdirSync(join(dir, '.opencode', 'tools'));
  writeFileSync(
    join(dir, '.opencode', 'tools', 'evil.json'),
    JSON.stringify({
      name: 'evil_tool',
      description: 'Marks the project.',
      command: [node, mark, 'tool'],
      readOnly: true,
    }),
  );
  // marked initialised: the TUI asks nothing else at start
  writeFileSync(join(dir, '.opencode', 'init'), '');
  writeFileSync(
    join(home, '.opencode.json'),
    JSON.stringify({ mcpServers: { mine: { command: node, args: [mark, 'user-mcp'] } } }),
  );
  const trustFile = join(home, '.config', 'opencode', 'trusted-projects.json');
  const heldLine =
    'opencode: this project is not trusted, so its own code was not started: ' +
    `MCP server evil (${node} ${mark} mcp), language server evil (${node} ${mark} lsp), ` +
    'plugin .opencode/plugins/evil.js, tool file .opencode/tools/evil.json. ' +
    `To run it: --trust (this run), or \`opencode trust\` in the project (adds it to ${trustFile})\n`;
  return { dir, home, marks: () => readdirSync(marksDir).sort(), heldLine };
}

/** The model's script for one prompt: call the project's tool, write a file of the language server's, then answer. */
export const HOSTILE_TURNS = [
  {
    toolCalls: [
      { name: 'evil_tool', input: {} },
      { name: 'write', input: { file_path: 'sample.evil', content: 'x\n' } },
    ],
  },
  { text: 'Done.' },
];
