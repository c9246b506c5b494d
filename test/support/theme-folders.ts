/**
 * Where theme files are looked for, made fresh in a temp folder for a test: a project's
 * `.opencode/themes` and a HOME's `.config/opencode/themes`, both empty, with the {@link ThemePlaces}
 * that point the loader at them (no environment variables).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ThemePlaces } from '../../src/tui/theme-loader.js';

export interface ThemeFolders {
  /** the temp folder holding the project and the HOME, for other places a test makes */
  root: string;
  places: ThemePlaces;
  /** `<project>/.opencode/themes` */
  projectDir: string;
  /** `<home>/.config/opencode/themes` */
  userDir: string;
  /** removes the temp folder */
  remove(): void;
}

export function themeFolders(): ThemeFolders {
  const root = mkdtempSync(join(tmpdir(), 'oc-themes-'));
  const cwd = join(root, 'project');
  const home = join(root, 'home');
  const projectDir = join(cwd, '.opencode', 'themes');
  const userDir = join(home, '.config', 'opencode', 'themes');
  mkdirSync(projectDir, { recursive: true });
  mkdirSync(userDir, { recursive: true });
  return {
    root,
    places: { cwd, env: {}, home },
    projectDir,
    userDir,
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}
