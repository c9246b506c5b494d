/**
 * The VS Code extension packages into a `.vsix` with `@vscode/vsce`, using nothing but what is on
 * disk: the bundle, its manifest and its README. Needs the extension's own dependencies
 * (`npm run build:vscode` installs them; CI runs it before the tests).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const EXTENSION = join(import.meta.dirname, '../../extensions/vscode');
const VSCE = join(EXTENSION, 'node_modules/.bin/vsce');
const installed = existsSync(VSCE);
const out = mkdtempSync(join(tmpdir(), 'oc-vsix-'));

afterAll(() => rmSync(out, { recursive: true, force: true }));

/** The names in a zip file, read with yauzl (the reader vsce itself depends on). */
function zipEntries(file: string): Promise<string[]> {
  const yauzl = createRequire(join(EXTENSION, 'package.json'))('yauzl');
  return new Promise((resolve, reject) => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- yauzl has no types here
    yauzl.open(file, { lazyEntries: true }, (err: Error | null, zip: any) => {
      if (err) return reject(err);
      const names: string[] = [];
      zip.on('entry', (entry: { fileName: string }) => {
        names.push(entry.fileName);
        zip.readEntry();
      });
      zip.on('end', () => resolve(names));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

describe('the VS Code extension package', () => {
  it.skipIf(!installed)(
    `vsce packages the bundle, the manifest and the README, and nothing else${installed ? '' : ' (skipped: the packager is not installed; run npm run build:vscode)'}`,
    async () => {
      execFileSync(process.execPath, ['build.mjs'], { cwd: EXTENSION });
      expect(
        execFileSync(VSCE, ['ls', '--no-dependencies'], { cwd: EXTENSION, encoding: 'utf8' }).trim().split('\n').sort(),
      ).toEqual(['README.md', 'dist/extension.js', 'package.json']);
      const vsix = join(out, 'opencode.vsix');
      execFileSync(VSCE, ['package', '--no-dependencies', '--skip-license', '--out', vsix], {
        cwd: EXTENSION,
        stdio: 'pipe',
      });
      expect((await zipEntries(vsix)).sort()).toEqual([
        '[Content_Types].xml',
        'extension.vsixmanifest',
        'extension/dist/extension.js',
        'extension/package.json',
        'extension/readme.md',
      ]);
    },
    120_000,
  );
});
