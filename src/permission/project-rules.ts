/**
 * "Always allow in this project": the granted scopes become `allow` rules in the
 * project's `.opencode.json`, written by a minimal edit so the rest of the file stays as it was.
 *
 * Where the rule goes, by what `permission` holds now:
 * - nothing: `"permission": {"bash": {"git checkout *": "allow"}}` is added;
 * - one action (`"ask"`): it becomes `{"*": "ask", "bash": {"git checkout *": "allow"}}`;
 * - an object without the tool: `"bash": {…}` is added at its end;
 * - the tool with one action (`"bash": "ask"`): it becomes `{"*": "ask", "git checkout *": "allow"}`;
 * - the tool with patterns: the pattern is (re)placed last among them, so it wins over earlier ones.
 * A whole-tool grant (pattern `*`, e.g. an MCP tool) is written as `"github_create_issue": "allow"`
 * when the tool has no patterns yet.
 */
import { readFileSync } from 'node:fs';
import { parseJsonText } from '../config/json-text.js';
import { setJsonValue, updateProjectConfigFile } from '../config/write.js';
import { describeRule, hasWildcard, lastMatchingRule, permissionRules, type PermissionSetting } from './rules.js';

/**
 * Adds `allow` rules of `toolName` for `patterns` to `<cwd>/.opencode.json` (created if missing).
 * Returns warnings: a literal path with a wildcard character is not written (the rule would allow
 * more than was granted), and a later rule in the file that overrides a new one is named.
 * @throws {ConfigError} when the file is not valid JSON or its `permission` value is invalid
 */
export function saveProjectRules(
  cwd: string,
  toolName: string,
  patterns: string[],
  options: { literal?: boolean } = {},
): string[] {
  const warnings: string[] = [];
  const written = patterns.filter((pattern) => {
    if (options.literal && hasWildcard(pattern)) {
      warnings.push(
        `Not saved as a rule: "${pattern}" contains * or ?, which a rule would read as a wildcard; it is allowed for this session only.`,
      );
      return false;
    }
    return true;
  });
  if (written.length === 0) return warnings;

  const file = updateProjectConfigFile(cwd, ['permission'], (text) => addAllowRules(text, toolName, written));
  const rules = permissionRules(readPermission(file));
  for (const pattern of written) {
    const winner = lastMatchingRule(rules, toolName, [pattern]);
    if (winner && winner.action !== 'allow') {
      warnings.push(
        `${file}: the new rule ${describeRule({ tool: toolName, pattern, action: 'allow' })} is overridden by the later rule ${describeRule(winner)}; move it below that rule for it to take effect next time.`,
      );
    }
  }
  return warnings;
}

/** The text of a config file with `allow` rules for `patterns` of `toolName` added (see the module comment). */
export function addAllowRules(text: string, toolName: string, patterns: string[]): string {
  const config = parseJsonText(text) as Record<string, unknown>;
  const setting = config.permission as PermissionSetting | undefined;
  const allowAll = Object.fromEntries(patterns.map((p) => [p, 'allow']));
  const toolValue = (current: string | undefined) => {
    if (current === undefined && patterns.length === 1 && patterns[0] === '*') return 'allow';
    return current === undefined ? allowAll : { '*': current, ...allowAll };
  };
  if (setting === undefined) return setJsonValue(text, ['permission'], { [toolName]: toolValue(undefined) });
  if (typeof setting === 'string')
    return setJsonValue(text, ['permission'], { '*': setting, [toolName]: toolValue(undefined) });
  const current = setting[toolName];
  if (current === undefined || typeof current === 'string') {
    if (current !== undefined && patterns.length === 1 && patterns[0] === '*')
      return setJsonValue(text, ['permission', toolName], 'allow');
    return setJsonValue(text, ['permission', toolName], toolValue(current));
  }
  let out = text;
  for (const pattern of patterns)
    out = setJsonValue(out, ['permission', toolName, pattern], 'allow', { moveToEnd: true });
  return out;
}

function readPermission(file: string): PermissionSetting | undefined {
  return (parseJsonText(readFileSync(file, 'utf8')) as { permission?: PermissionSetting }).permission;
}
