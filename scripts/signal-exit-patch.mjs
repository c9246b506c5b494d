// A build-time patch of signal-exit 3 (the copies under ink/ and restore-cursor/; their own deps
// are on signal-exit 4, which has no assert), applied by scripts/build.mjs like its other dependency
// patches ({ filter, from, to } text replacements; the build fails when a `from` text is gone). Its
// own file so that test/tui/signal-exit-patch.test.ts can run the module with and without it.
//
// signal-exit 3 loads node:assert when it loads (~4 ms of the TUI's start) for one
// argument check of its exit hook, `assert.equal(typeof cb, 'function', …)`; the patch does that
// check itself and loads node:assert only when it fails, to throw the same AssertionError.

/** signal-exit 3's index.js, in Ink's and restore-cursor's own node_modules. */
export const SIGNAL_EXIT_3 =
  /[\\/]node_modules[\\/](ink|restore-cursor)[\\/]node_modules[\\/]signal-exit[\\/]index\.js$/;
export const SIGNAL_EXIT_PATCHES = [
  {
    from: "var assert = require('assert')",
    to: "var assert = { equal: function (actual, expected, message) { if (actual != expected) require('assert').equal(actual, expected, message) } }",
  },
];
