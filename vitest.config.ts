/**
 * The suite as three projects (see test/support/suite-groups.ts for which file goes where):
 *
 * | project       | holds                                                              | runs                                  |
 * |---------------|--------------------------------------------------------------------|---------------------------------------|
 * | `unit`        | in-process tests of one part (`npm run test:quick`)                 | first group, beside `integration`     |
 * | `integration` | tests that start programs (bin/opencode, git, servers) or the app   | first group, beside `unit`            |
 * | `e2e`         | the tmux end-to-end tests (test/e2e)                                | second group, after the first is done |
 *
 * Workers: vitest's default in run mode is one fewer than the cores, one worker on a 2-core machine,
 * yet most of the suite waits on the programs it starts (bin/opencode, git, language servers, tmux,
 * bwrap) rather than computing. Twice the cores in workers keep the cores busy while those wait (on
 * 2 cores they were 98% busy over a whole run). The end-to-end tests poll
 * a real terminal with time limits made for a quiet machine, so they run after the rest, in a group of
 * their own, where no CPU-heavy unit file runs beside them. scripts/test-timing.mjs shows where the time goes.
 */
import { availableParallelism } from 'node:os';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { suiteGroups } from './test/support/suite-groups.js';

const cores = availableParallelism();
/** Workers for the first group: twice the cores, since most files spend their time waiting on child processes. */
const WORKERS = Math.max(2, cores * 2);
/** Workers for the tmux end-to-end group: each file drives a terminal and the TUI in it, idle between frames. */
const E2E_WORKERS = Math.max(2, cores * 2);

const groups = suiteGroups(import.meta.dirname);

const shared = {
  testTimeout: 30_000,
  hookTimeout: 60_000,
  pool: 'forks',
} as const;

function project(
  name: string,
  include: string[],
  maxWorkers: number,
  groupOrder: number,
): TestProjectInlineConfiguration {
  return { test: { ...shared, name, include, maxWorkers, sequence: { groupOrder } } };
}

export default defineConfig({
  test: {
    // the global setup is the root's alone: a project that inherited it would build dist/ again
    globalSetup: ['test/global-setup.ts'],
    projects: [
      project('unit', groups.unit, WORKERS, 0),
      project('integration', groups.integration, WORKERS, 0),
      project('e2e', groups.e2e, E2E_WORKERS, 1),
    ],
  },
});
