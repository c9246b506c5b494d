/**
 * Reads of secret places by the file tools (`view`, `ls`, `glob`, `grep`): the places under the home
 * directory that hold credentials (`~/.ssh`, `~/.aws`, `~/.gnupg`, … — the sandbox's table, so a
 * command and a file tool guard the same places). Other reads, in the project or outside it, stay
 * free; a read of a secret place asks first, as the sandbox hides them from commands that run without
 * the person's word. Links are followed: a link in the project to `~/.ssh/id_rsa` is that file.
 * opencode's own `/proc/<pid>/environ` counts too: the tools run in its process.
 */
import { existsSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { SECRET_HOME_PATHS, xdgSecretPaths } from '../sandbox/policy.js';
import { namesHiddenEntries } from './glob-pattern.js';
import type { ToolContext } from './tool.js';

/** A secret place: its absolute path and what it holds. */
export interface SecretPlace {
  path: string;
  reason: string;
}

/** Where the secret places are: the home directory and the configured extra places, from the tool context. */
export interface SecretScope {
  home: string;
  /** `sandbox.denyRead`, resolved against `projectDir` */
  configured?: readonly string[];
  projectDir?: string;
}

/** The scope of a tool call: `$HOME` and the configured places of its context. */
export function secretScope(ctx: Pick<ToolContext, 'secretReadPaths' | 'cwd'>): SecretScope {
  return {
    home: homeDirectory(),
    projectDir: ctx.cwd,
    ...(ctx.secretReadPaths && { configured: ctx.secretReadPaths }),
  };
}

/** The home directory the secret places are under: `$HOME`, as the shell and ssh read it. */
export function homeDirectory(): string {
  return process.env.HOME || homedir();
}

/** The secret places of a scope, by their text and by their real paths (a home reached through a link). */
function secretPlaces(scope: SecretScope): SecretPlace[] {
  const places: SecretPlace[] = [];
  for (const root of new Set([scope.home, realOrSelf(scope.home)])) {
    for (const entry of SECRET_HOME_PATHS) places.push({ path: join(root, entry.path), reason: entry.reason });
  }
  for (const entry of xdgSecretPaths())
    for (const path of new Set([entry.path, realOrSelf(entry.path)])) places.push({ path, reason: entry.reason });
  for (const configured of scope.configured ?? []) {
    const absolute =
      configured === '~'
        ? scope.home
        : configured.startsWith('~/')
          ? join(scope.home, configured.slice(2))
          : resolve(scope.projectDir ?? '/', configured);
    for (const path of new Set([absolute, realOrSelf(absolute)]))
      places.push({ path, reason: 'what sandbox.denyRead in the configuration keeps from commands' });
  }
  return places;
}

/** opencode's own environment and memory, which hold the provider keys it was started with. */
function ownProcessFile(path: string): boolean {
  const match = /^\/proc\/(self|thread-self|\d+)(\/task\/\d+)?\/(environ|mem|auxv)$/.exec(path);
  return match !== null && (match[1] === 'self' || match[1] === 'thread-self' || Number(match[1]) === process.pid);
}

/** The secret place `path` is in or is, by its text or after following links, or undefined. */
export function secretPlaceOf(path: string, scope: SecretScope = { home: homeDirectory() }): SecretPlace | undefined {
  const candidates = new Set([resolve(path), realOrSelf(resolve(path))]);
  for (const candidate of candidates) {
    if (ownProcessFile(candidate))
      return { path: candidate, reason: "opencode's own environment, with the keys it was started with" };
    const hit = secretPlaces(scope).find((place) => isWithin(place.path, candidate));
    if (hit) return { path: candidate, reason: hit.reason };
  }
  return undefined;
}

/**
 * The secret place a search from `root` may read: `root` inside one, or `root` above an existing one
 * when the search reaches hidden entries — always for grep, which searches them; for glob when its
 * pattern names one (`.ssh/*`), since its walk skips dot entries otherwise.
 */
export function secretPlaceSearched(
  root: string,
  reach: { hidden: boolean } | { pattern: string },
  scope: SecretScope = { home: homeDirectory() },
): SecretPlace | undefined {
  const inside = secretPlaceOf(root, scope);
  if (inside) return inside;
  if ('pattern' in reach ? !namesHiddenEntries(reach.pattern) : !reach.hidden) return undefined;
  const real = realOrSelf(resolve(root));
  return secretPlaces(scope).find(
    (place) => (isWithin(real, place.path) || isWithin(resolve(root), place.path)) && existsSync(place.path),
  );
}

/**
 * Asks before a file tool reads a secret place: the request names the place and what it holds. It
 * asks whatever the rules allow (a tool-wide `"view": "allow"` does not cover it, nor does a session
 * grant); a `deny` rule matching the path refuses it without asking.
 * @throws the permission error the service raises when it is denied
 */
export async function askBeforeSecretRead(ctx: ToolContext, tool: string, place: SecretPlace): Promise<void> {
  await ctx.askPermission(
    {
      action: 'read',
      description: `${tool} reads ${place.path}, which holds ${place.reason}`,
      params: { path: place.path, reason: place.reason },
      path: dirname(place.path),
    },
    { kind: 'secret-read', path: place.path, reason: place.reason },
  );
}

function isWithin(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !rel.startsWith(sep) && !/^[A-Za-z]:/.test(rel));
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    // a path that does not exist yet: its parent may still be a link into a secret place
    try {
      return join(realpathSync(dirname(path)), path.slice(dirname(path).length + 1));
    } catch {
      return path;
    }
  }
}
