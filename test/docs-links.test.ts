/**
 * Every relative link of README.md and docs/*.md leads somewhere: the file (or folder) exists, and a
 * `#anchor` names a heading of the file it points into, by GitHub's rules for heading ids.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');

/**
 * A heading's id as GitHub makes it: lower case, everything but letters, digits, spaces, `-` and
 * `_` dropped, each space a `-` (so "Editors (ACP)" is `editors-acp` and "`-p` for scripts" is `-p-for-scripts`).
 */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}_\- ]/gu, '')
    .replace(/ /g, '-');
}

/** The markdown text outside fenced code blocks, where links and headings are read. */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
}

/** The ids of a file's headings; a repeated heading gets `-1`, `-2`, … as on GitHub. */
function headingIds(markdown: string): Set<string> {
  const ids = new Set<string>();
  const seen = new Map<string, number>();
  for (const m of prose(markdown).matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    ids.add(n === 0 ? base : `${base}-${n}`);
  }
  return ids;
}

/** Each broken relative link of the given markdown files, as `file: target: why`. */
function brokenLinks(files: string[], root: string): string[] {
  const problems: string[] = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const name = relative(root, file);
    const links = [
      ...prose(text)
        .replace(/`[^`\n]*`/g, '')
        .matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g),
    ].map((m) => m[1]!);
    for (const target of links) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: and the like are not ours to check
      const hash = target.indexOf('#');
      const path = hash === -1 ? target : target.slice(0, hash);
      const anchor = hash === -1 ? undefined : decodeURIComponent(target.slice(hash + 1));
      const dest = path === '' ? file : resolve(dirname(file), decodeURIComponent(path));
      if (!existsSync(dest)) {
        problems.push(`${name}: ${target}: ${relative(root, dest)} does not exist`);
        continue;
      }
      if (anchor === undefined) continue;
      if (statSync(dest).isDirectory() || !dest.endsWith('.md')) {
        problems.push(`${name}: ${target}: an anchor into ${relative(root, dest)}, which is not a markdown file`);
      } else if (!headingIds(readFileSync(dest, 'utf8')).has(anchor)) {
        problems.push(`${name}: ${target}: ${relative(root, dest)} has no heading #${anchor}`);
      }
    }
  }
  return problems;
}

const DOCS = readdirSync(join(ROOT, 'docs'))
  .filter((f) => f.endsWith('.md'))
  .map((f) => join(ROOT, 'docs', f));

describe('links of the README and docs/', () => {
  it('README.md and docs/*.md have no broken relative link or anchor', () => {
    expect(DOCS.length).toBeGreaterThan(10);
    expect(brokenLinks([join(ROOT, 'README.md'), ...DOCS], ROOT)).toEqual([]);
  });

  it('README.md links every page of docs/', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(DOCS.map((f) => relative(ROOT, f)).filter((f) => !readme.includes(`](${f})`))).toEqual([]);
  });

  it('names a missing file, a missing heading and an anchor into a folder', () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-docs-links-'));
    writeFileSync(
      join(dir, 'a.md'),
      [
        '# A',
        '## Editors (ACP)',
        '## `-p` for scripts',
        '## Tips',
        '## Tips',
        '[ok](#editors-acp) [ok](#-p-for-scripts) [ok](#tips-1) [ok](b.md#b) [ok](https://example.com/x#y)',
        '[bad](#tips-2) [bad](b.md#nothing) [bad](c.md) [bad](sub#a)',
        '```',
        '[inside code](nowhere.md)',
        '```',
      ].join('\n'),
    );
    writeFileSync(join(dir, 'b.md'), '# B\n');
    mkdirSync(join(dir, 'sub'));
    expect(brokenLinks([join(dir, 'a.md')], dir)).toEqual([
      'a.md: #tips-2: a.md has no heading #tips-2',
      'a.md: b.md#nothing: b.md has no heading #nothing',
      'a.md: c.md: c.md does not exist',
      'a.md: sub#a: an anchor into sub, which is not a markdown file',
    ]);
  });
});
