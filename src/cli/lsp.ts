/**
 * `opencode lsp list`: which language servers would start for this project and why,
 * without starting any: configured entries, servers found for the languages present, and the
 * known languages left out with the reason.
 */
import { resolve } from 'node:path';
import { loadConfigForCommand } from './load-config.js';
import { planServers, type LspServerPlan, type LspSkipped } from '../lsp/servers.js';

export async function runLspList(opts: { cwd?: string }): Promise<number> {
  const cwd = resolve(opts.cwd ?? process.cwd());
  const loaded = loadConfigForCommand(cwd);
  if (typeof loaded === 'number') return loaded;
  const { servers, skipped } = planServers(cwd, loaded.config.lsp, process.env.PATH);
  process.stdout.write(formatLspList(servers, skipped));
  return 0;
}

/**
 * The text, e.g.
 * ```
 * typescript  node_modules/.bin/typescript-language-server --stdio
 *   discovered: found node_modules/.bin/typescript-language-server; the project has 12 .ts files
 *   starts with opencode for .ts .tsx .mts .cts .js .jsx .mjs .cjs files; edits wait for its initial load (up to 10000 ms from its start), then up to 5000 ms for its diagnostics
 * Not started:
 *   go: gopls not found on PATH
 * ```
 */
export function formatLspList(servers: readonly LspServerPlan[], skipped: readonly LspSkipped[]): string {
  const lines: string[] = [];
  if (servers.length === 0) lines.push('No language server for this project.');
  for (const s of servers) {
    lines.push(`${s.language}  ${[s.command, ...s.args].join(' ')}`);
    lines.push(`  ${s.source}: ${s.why}`);
    lines.push(
      `  starts with opencode for ${s.extensions.join(' ')} files; edits wait for its initial load (up to ${s.startTimeoutMs} ms from its start), then up to ${s.diagnosticsTimeoutMs} ms for its diagnostics`,
    );
  }
  if (skipped.length) {
    lines.push('Not started:');
    for (const k of skipped) lines.push(`  ${k.language === '*' ? 'all' : k.language}: ${k.why}`);
  }
  return `${lines.join('\n')}\n`;
}
