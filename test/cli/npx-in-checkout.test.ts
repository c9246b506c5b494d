/**
 * `npx opencode` inside a checkout where `npm install` ran: npm exec installs the checkout into its own
 * cache as a link and runs its `prepare` again; that must not build dist/ a second time (half a minute
 * with no output before the first answer), so the command runs from dist/ as `npm install` left it.
 *
 * The checkout here is a copy of the package's files with dist/ and node_modules/ linked to this
 * repository's, and without src/: a build would fail, so only a skipped one lets the command run.
 * npm's cache is a temp folder and npm is offline: nothing is fetched.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanEnv } from '../support/cli.js';

const ROOT = resolve(import.meta.dirname, '..', '..');

describe('npx opencode inside the checkout', () => {
  it('runs the installed build without building again', () => {
    const checkout = mkdtempSync(join(tmpdir(), 'opencode-npx-checkout-'));
    for (const entry of ['package.json', 'bin', 'scripts'])
      cpSync(join(ROOT, entry), join(checkout, entry), { recursive: true });
    symlinkSync(join(ROOT, 'dist'), join(checkout, 'dist'));
    symlinkSync(join(ROOT, 'node_modules'), join(checkout, 'node_modules'));
    const env = cleanEnv({
      npm_config_cache: mkdtempSync(join(tmpdir(), 'opencode-npm-cache-')),
      npm_config_offline: 'true',
      npm_config_update_notifier: 'false',
    });
    const run = spawnSync('npx', ['opencode', 'help', 'schema'], {
      cwd: checkout,
      env,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout.startsWith('Usage: opencode schema [options]\n')).toBe(true);
  });
});
