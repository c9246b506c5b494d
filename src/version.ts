/** Replaced at build time by scripts/build.mjs with package.json's version. */
declare const OPENCODE_VERSION: string | undefined;

/** The product version, e.g. `0.1.0`. */
export const VERSION: string = typeof OPENCODE_VERSION === 'string' ? OPENCODE_VERSION : '0.0.0-dev';
