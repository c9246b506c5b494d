/**
 * Nothing of the TUI loads in `opencode acp`: the modules reachable from src/acp/run.ts (static and
 * dynamic imports, followed through our sources) include no Ink, no React and no module of src/tui or
 * src/cli (the custom commands' file reader is src/custom/commands.ts).
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..', '..', 'src');

/** Every module specifier `file` imports (import … from, export … from, import()). */
function specifiers(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const m of source.matchAll(/^\s*(?:import|export)\s+(?!type\b)[^;]*?from\s+'([^']+)'/gm)) found.push(m[1]!);
  for (const m of source.matchAll(/import\('([^']+)'\)/g)) found.push(m[1]!);
  return found;
}

/** Our source files reachable from `entry`, and the packages they import. */
function reachable(entry: string): { files: string[]; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    for (const spec of specifiers(file)) {
      if (spec.startsWith('.')) {
        const target = resolve(dirname(file), spec).replace(/\.js$/, '');
        const ts = [`${target}.ts`, `${target}.tsx`].find((candidate) => {
          try {
            readFileSync(candidate);
            return true;
          } catch {
            return false;
          }
        });
        if (ts) queue.push(ts);
      } else if (!spec.startsWith('node:')) {
        packages.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);
      }
    }
  }
  return { files: [...files].map((f) => relative(SRC, f)).sort(), packages };
}

describe('opencode acp loads nothing of the TUI', () => {
  it('reaches no Ink, React, TUI or CLI module', () => {
    const { files, packages } = reachable(join(SRC, 'acp', 'run.ts'));
    // the walk does reach the core (so an empty answer below means something)
    expect(files).toEqual(
      expect.arrayContaining([
        'acp/agent-server.ts',
        'app/app.ts',
        'agent/agent.ts',
        'tools/edit.ts',
        'custom/start.ts',
      ]),
    );
    expect(files.filter((f) => f.startsWith('tui/') || f.startsWith('cli/'))).toEqual([]);
    expect(files.filter((f) => f.endsWith('.tsx'))).toEqual([]);
    for (const name of ['ink', 'react', 'ink-text-input']) expect(packages.has(name), name).toBe(false);
    expect(packages.has('@agentclientprotocol/sdk')).toBe(true);
  });
});
