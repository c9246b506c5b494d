/**
 * One ignore file (`.gitignore`, `.ignore`, `.rgignore`, `.git/info/exclude`) matched the way
 * ripgrep matches it, so the pure-Node search fallback selects the same files as rg.
 *
 * Why not the `ignore` package: it also tests every parent directory of a path against the same
 * file, and ripgrep does not (it relies on having pruned ignored folders). The two disagree when
 * the search starts inside an ignored folder, e.g. `node_modules/react` of a project that ignores
 * `node_modules`: rg lists its files, `ignore` would hide them all.
 */
import { globToRegExp } from './glob-pattern.js';

interface Rule {
  regex: RegExp;
  negated: boolean;
  dirOnly: boolean;
  /** the rule has no slash: it is tested against the last path segment only */
  basenameOnly: boolean;
}

/** A parsed ignore file. Paths given to {@link Gitignore.match} are relative to its directory. */
export class Gitignore {
  private constructor(private readonly rules: readonly Rule[]) {}

  /** Parses gitignore syntax: comments, `!` negation, trailing `/` for folders, leading or middle `/` anchors. */
  static parse(text: string): Gitignore {
    const rules: Rule[] = [];
    for (let line of text.split('\n')) {
      if (line.endsWith('\r')) line = line.slice(0, -1);
      if (line.startsWith('#')) continue;
      // trailing spaces are dropped unless the last one is escaped
      if (!line.endsWith('\\ ')) line = line.trimEnd();
      let negated = false;
      if (line.startsWith('!')) {
        negated = true;
        line = line.slice(1);
      }
      let dirOnly = false;
      if (line.endsWith('/') && !line.endsWith('\\/')) {
        dirOnly = true;
        line = line.slice(0, -1);
      }
      if (line === '') continue;
      const anchored = line.includes('/');
      if (line.startsWith('/')) line = line.slice(1);
      try {
        rules.push({ regex: globToRegExp(line), negated, dirOnly, basenameOnly: !anchored });
      } catch {
        // a line that is not a valid glob ignores nothing (rg skips it with a warning)
      }
    }
    return new Gitignore(rules);
  }

  get isEmpty(): boolean {
    return this.rules.length === 0;
  }

  /**
   * The last rule matching `relPath` decides: `ignore`, `whitelist` (a `!` rule), or undefined
   * when no rule matches. `relPath` is `/`-separated with no leading `./`.
   */
  match(relPath: string, isDir: boolean): 'ignore' | 'whitelist' | undefined {
    let base: string | undefined;
    for (let i = this.rules.length - 1; i >= 0; i--) {
      const rule = this.rules[i]!;
      if (rule.dirOnly && !isDir) continue;
      let subject = relPath;
      if (rule.basenameOnly) {
        base ??= relPath.slice(relPath.lastIndexOf('/') + 1);
        subject = base;
      }
      if (rule.regex.test(subject)) return rule.negated ? 'whitelist' : 'ignore';
    }
    return undefined;
  }
}
