/**
 * A vitest reporter that writes each test file's times as JSON to the path in TEST_TIMING_OUTPUT, for
 * scripts/test-timing.mjs. Unlike vitest's JSON reporter (first test's start to last test's end), a
 * file's time here includes starting its worker and importing it and what it imports, which is a
 * large share of this suite's time.
 *
 * Output: `{ wallMs, files: [{ file, project, ms, prepareMs, importMs, testsMs, failed, tests: [{ name, ms, state }] }] }`,
 * times in ms; `file` relative to the project root. The fields come from vitest's reporter API
 * (TestModule.diagnostic(): prepareDuration, collectDuration, setupDuration, duration; TestCase.diagnostic().duration).
 */
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';

export default class TestTimingReporter {
  onInit(vitest) {
    this.root = vitest.config.root;
    this.startedMs = Date.now();
  }

  onTestRunEnd(testModules) {
    const output = process.env.TEST_TIMING_OUTPUT;
    if (!output) return;
    const files = testModules.map((module) => {
      const d = module.diagnostic();
      const tests = [...module.children.allTests()].map((test) => ({
        name: test.fullName,
        ms: test.diagnostic()?.duration ?? 0,
        state: test.result().state,
      }));
      return {
        file: relative(this.root, module.moduleId),
        project: module.project.name,
        ms: d.prepareDuration + d.collectDuration + d.setupDuration + d.duration,
        prepareMs: d.prepareDuration,
        importMs: d.collectDuration,
        testsMs: d.duration,
        failed: module.state() === 'failed',
        tests,
      };
    });
    writeFileSync(output, JSON.stringify({ wallMs: Date.now() - this.startedMs, files }));
  }
}
