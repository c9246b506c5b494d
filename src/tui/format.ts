/**
 * Small formatters the TUI's parts share.
 */
import { isAbsolute, relative, sep } from 'node:path';

/**
 * `path` relative to the project directory `cwd` when inside it (`.` for `cwd` itself, `/`
 * separators), otherwise as given; relative paths are returned as they are.
 */
export function relativeToProject(path: string, cwd: string): string {
  if (!isAbsolute(path)) return path;
  const rel = relative(cwd, path);
  if (rel === '') return '.';
  if (rel.startsWith('..') || isAbsolute(rel)) return path;
  return rel.split(sep).join('/');
}

/** Tokens as the original shows them: `950`, `12.3K`, `1.2M`. */
export function formatTokens(tokens: number): string {
  if (tokens >= 1_000_000) return `${(tokens / 1_000_000).toFixed(1)}M`;
  if (tokens >= 1_000) return `${(tokens / 1_000).toFixed(1)}K`;
  return String(tokens);
}

/** US dollars with two decimals: `$0.05`. */
export function formatCost(usd: number): string {
  return `$${usd.toFixed(2)}`;
}

/** Share of the context window used, 0–100, or undefined when the window is unknown. */
export function contextPercent(contextTokens: number, windowTokens: number): number | undefined {
  if (!windowTokens || windowTokens <= 0) return undefined;
  return Math.round((contextTokens / windowTokens) * 100);
}

/** Above this share of the window the status bar warns (the original: 80 %). */
export const CONTEXT_WARNING_PERCENT = 80;
