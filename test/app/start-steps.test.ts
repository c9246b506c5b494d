/**
 * The one start-up path (src/app/start.ts): each step runs the ones before it, once; a failing step
 * says which one it was and what is wrong; the app is built on the database the storage step opened.
 * Real config files, real SQLite in a temp folder; no provider is reached.
 */
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startApp, StartError } from '../../src/app/start.js';
import { missingCredentialsMessage } from '../../src/provider/settings.js';

/** A project folder with `config` as its .opencode.json (none when undefined), and an empty home. */
function project(config?: unknown): { dir: string; home: string } {
  const root = mkdtempSync(join(tmpdir(), 'opencode-start-'));
  const dir = join(root, 'project');
  const home = join(root, 'home');
  mkdirSync(dir);
  mkdirSync(home);
  if (config !== undefined) writeFileSync(join(dir, '.opencode.json'), JSON.stringify(config));
  return { dir, home };
}

async function startError(work: Promise<unknown>): Promise<StartError> {
  const err = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(StartError);
  return err as StartError;
}

describe('startApp', () => {
  it('stops at the config step on a bad .opencode.json, naming the file and the key, before any database is made', async () => {
    const { dir, home } = project({ agents: { coder: { maxTokens: 'many' } } });
    const start = startApp({ cwd: dir, env: { HOME: home, ANTHROPIC_API_KEY: 'sk-ant-test' }, generateTitles: false });
    const err = await startError(start.app());
    expect(err.step).toBe('config');
    expect(err.lines).toEqual([`${join(dir, '.opencode.json')}: agents.coder.maxTokens: expected number, got string`]);
    expect(existsSync(join(dir, '.opencode'))).toBe(false);
  });

  it('stops at the models step without a credential, saying which variables to set', async () => {
    const { dir, home } = project();
    const err = await startError(startApp({ cwd: dir, env: { HOME: home }, generateTitles: false }).app());
    expect(err.step).toBe('models');
    expect(err.lines).toEqual([missingCredentialsMessage()]);
  });

  it('reads OPENCODE_PROFILE unless told to take no profile', async () => {
    const { dir, home } = project();
    const env = { HOME: home, ANTHROPIC_API_KEY: 'sk-ant-test', OPENCODE_PROFILE: 'work' };
    const err = await startError(startApp({ cwd: dir, env, generateTitles: false }).providers());
    expect([err.step, err.message]).toEqual([
      'models',
      'unknown profile "work": .opencode.json has no "profiles"; add one, e.g. "profiles": {"work": {"agents": {"coder": {"model": "provider/model"}}}} (OPENCODE_PROFILE)',
    ]);
    const chosen = await startApp({ cwd: dir, env, profile: false, generateTitles: false }).providers();
    expect(chosen.profile).toBeUndefined();
  });

  it('builds the app once, on the database the storage step opened, with the models the providers step chose', async () => {
    const { dir, home } = project();
    const start = startApp({
      cwd: dir,
      env: { HOME: home, ANTHROPIC_API_KEY: 'sk-ant-test' },
      generateTitles: false,
      appOptions: { startLanguageServers: false },
    });
    const storage = await start.storage();
    const app = await start.app();
    try {
      expect(app.db).toBe(storage.db);
      expect(app.bus).toBe(storage.bus);
      expect(await start.app()).toBe(app);
      expect(app.coderModel).toBe((await start.providers()).models.coder);
      expect(app.projectCodeHeld).toBe(false);
      expect(existsSync(join(dir, '.opencode', 'opencode.db'))).toBe(true);
    } finally {
      await app.close();
    }
  });
});
