/**
 * The `permission` setting as a list of rules, and wildcard matching. Pure functions.
 *
 * The setting takes three shapes, which flatten to the same list, in the file's key order:
 * - one action for everything: `"ask"` → `* * ask`;
 * - per tool: `{"edit": "ask", "fetch": "deny"}` → `edit * ask`, `fetch * deny`;
 * - per tool and pattern: `{"bash": {"*": "ask", "git status*": "allow"}}` → `bash * ask`, `bash git status* allow`.
 * Tool names are patterns too (`*`, `github_*`), so MCP tools are named in full or by wildcard.
 * The last rule whose tool and pattern match wins (sst/opencode's `permission` has the same rule).
 */
import type { PermissionAction, PermissionRule } from './types.js';

/** The `permission` value as it appears in `.opencode.json` (validated by the config schema). */
export type PermissionSetting = PermissionAction | Record<string, PermissionAction | Record<string, PermissionAction>>;

/** Flattens the setting into rules, in key order. `undefined` (no setting) gives none. */
export function permissionRules(setting: PermissionSetting | undefined): PermissionRule[] {
  if (setting === undefined) return [];
  if (typeof setting === 'string') return [{ tool: '*', pattern: '*', action: setting }];
  const rules: PermissionRule[] = [];
  for (const [tool, value] of Object.entries(setting)) {
    if (typeof value === 'string') rules.push({ tool, pattern: '*', action: value });
    else for (const [pattern, action] of Object.entries(value)) rules.push({ tool, pattern, action });
  }
  return rules;
}

const compiled = new Map<string, RegExp>();

/**
 * Whether `text` matches `pattern` as a whole: `*` is any run of characters (also none, also `/`),
 * `?` is one character, everything else stands for itself (case-sensitive). A pattern ending in ` *`
 * also matches without the tail, so `ls *` matches `ls` and `ls -la` (as in sst/opencode).
 */
export function wildcardMatch(pattern: string, text: string): boolean {
  let regex = compiled.get(pattern);
  if (!regex) {
    let source = '';
    for (const ch of pattern) {
      if (ch === '*') source += '[\\s\\S]*';
      else if (ch === '?') source += '[\\s\\S]';
      else source += ch.replace(/[.+^${}()|[\]\\/]/g, '\\$&');
    }
    if (source.endsWith(' [\\s\\S]*')) source = `${source.slice(0, -' [\\s\\S]*'.length)}(?: [\\s\\S]*)?`;
    regex = new RegExp(`^${source}$`, 'u');
    compiled.set(pattern, regex);
  }
  return regex.test(text);
}

/** Whether `pattern` contains a wildcard character. */
export function hasWildcard(pattern: string): boolean {
  return pattern.includes('*') || pattern.includes('?');
}

/**
 * The last rule of `toolName` whose pattern matches one of `subjects` (a pattern of `*` always
 * matches, even with no subject). `undefined` when none does.
 */
export function lastMatchingRule(
  rules: readonly PermissionRule[],
  toolName: string,
  subjects: readonly string[],
  filter?: (rule: PermissionRule) => boolean,
): PermissionRule | undefined {
  for (let i = rules.length - 1; i >= 0; i--) {
    const rule = rules[i]!;
    if (!wildcardMatch(rule.tool, toolName)) continue;
    if (filter && !filter(rule)) continue;
    if (rule.pattern === '*' || subjects.some((s) => wildcardMatch(rule.pattern, s))) return rule;
  }
  return undefined;
}

/** A rule as a person reads it in the settings: `bash "rm *": "deny"`. */
export function describeRule(rule: PermissionRule): string {
  const tool = rule.tool === '*' ? 'every tool' : rule.tool;
  return `${tool} ${JSON.stringify(rule.pattern)}: ${JSON.stringify(rule.action)}`;
}
