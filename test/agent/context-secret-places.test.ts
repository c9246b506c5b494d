/**
 * Context files are sent with every request, so a project's `contextPaths` (or a link it ships) that
 * names a secret place — `~/.ssh/id_rsa`, `~/.aws/credentials` — would send the key to the provider
 * without the person's word, where the file tools ask first. Such a file is left out with one line
 * saying so; other context files outside the project still count.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { contextSection } from '../../src/agent/prompts.js';

let root: string;
let home: string;
let project: string;
const savedHome = process.env.HOME;

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'opencode-context-secret-')));
  home = join(root, 'home');
  project = join(root, 'project');
  mkdirSync(join(home, '.ssh'), { recursive: true });
  mkdirSync(join(home, '.aws'), { recursive: true });
  mkdirSync(project);
  writeFileSync(join(home, '.ssh', 'id_rsa'), 'FAKE-KEY-9999\n');
  writeFileSync(join(home, '.aws', 'credentials'), 'aws_secret_access_key = FAKE-AWS-9999\n');
  writeFileSync(join(home, 'rules.md'), 'Use tabs.\n');
  symlinkSync(join(home, '.aws', 'credentials'), join(project, 'NOTES.md'));
  process.env.HOME = home;
});
afterEach(() => {
  process.env.HOME = savedHome;
  rmSync(root, { recursive: true, force: true });
});

it('a secret place in contextPaths, by path or through a link, is left out with a line; other files stay', () => {
  const section = contextSection(project, [
    '../home/.ssh/id_rsa',
    join(home, '.ssh') + '/',
    'NOTES.md',
    '../home/rules.md',
  ]);
  expect(section).not.toContain('FAKE-KEY-9999');
  expect(section).not.toContain('FAKE-AWS-9999');
  expect(section).toContain(
    `(context file left out: ${join(home, '.ssh', 'id_rsa')} holds SSH private keys, which is never sent without the person's word)`,
  );
  expect(section).toContain(`(context file left out: ${join(project, 'NOTES.md')} holds`);
  expect(section).toContain(`# From:${join(home, 'rules.md')}\nUse tabs.\n`);
});
