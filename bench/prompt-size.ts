/**
 * Prompt size: the characters sent on every request before any history, i.e. the coder system
 * prompt (with its environment block and project tree, as the app builds it) plus the JSON of the
 * built-in tool schemas, against the 24,000-character budget (src/agent/prompts.ts). Also the same
 * for a big project (the search tree), where the `<project>` block holds up to {@link PROJECT_TREE_MAX_ENTRIES} entries, and
 * the time of building that tree, which the agent does on every provider call and tool call.
 */
import { rmSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { DEFAULT_CONTEXT_PATHS } from '../src/config/schema.js';
import { PROJECT_TREE_MAX_ENTRIES, systemPrompt } from '../src/agent/prompts.js';
import { builtinTools } from '../src/tools/index.js';
import { projectTree } from '../src/tools/ls.js';
import { median, ms, smallProject, type Row } from './lib.js';

const BUDGET = 24_000;

function promptChars(cwd: string): { system: number; tools: number; tree: number } {
  const tree = projectTree(cwd, PROJECT_TREE_MAX_ENTRIES);
  const system = systemPrompt('coder', { cwd, projectTree: tree, contextPaths: DEFAULT_CONTEXT_PATHS }).length;
  const tools = JSON.stringify(builtinTools().schemas()).length;
  return { system, tools, tree: tree.length };
}

export function benchPromptSize(bigProject?: string): Row[] {
  const project = smallProject();
  const small = promptChars(project);
  rmSync(project, { recursive: true, force: true });
  const total = small.system + small.tools;
  const S = 'prompt size';
  const pct = (n: number) => `${((100 * n) / BUDGET).toFixed(0)}% of budget`;
  const rows: Row[] = [
    {
      section: S,
      name: 'coder system prompt (small project)',
      value: `${small.system} chars`,
      ratio: pct(small.system),
      note: `prompt + <env> + <project> tree (${small.tree} chars) of a 5-file git project, default contextPaths (none present)`,
    },
    {
      section: S,
      name: 'built-in tool schemas (JSON)',
      value: `${small.tools} chars`,
      ratio: pct(small.tools),
      note: `JSON.stringify(builtinTools().schemas()): ${builtinTools().schemas().length} tools`,
    },
    {
      section: S,
      name: 'total',
      value: `${total} chars`,
      ratio: `${(total / BUDGET).toFixed(2)}× budget`,
      target: `≤ ${BUDGET} (${total <= BUDGET ? 'met' : 'missed'})`,
      note: 'sent on every request before the history',
    },
  ];
  if (bigProject) {
    const big = promptChars(bigProject);
    const times: number[] = [];
    for (let i = 0; i < 6; i++) {
      const t0 = performance.now();
      projectTree(bigProject, PROJECT_TREE_MAX_ENTRIES);
      if (i > 0) times.push(performance.now() - t0);
    }
    rows.push(
      {
        section: S,
        name: 'total, cwd = search tree',
        value: `${big.system + big.tools} chars`,
        ratio: `${((big.system + big.tools) / BUDGET).toFixed(2)}× budget`,
        target: `≤ ${BUDGET} (${big.system + big.tools <= BUDGET ? 'met' : 'missed'})`,
        note: `same, project tree of the search tree: ${big.tree} chars (${PROJECT_TREE_MAX_ENTRIES}-entry cap)`,
      },
      {
        section: S,
        name: 'projectTree(), cwd = search tree',
        value: ms(median(times)),
        note: 'built by promptEnvironment() once per run',
      },
    );
  }
  return rows;
}
