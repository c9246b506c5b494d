/**
 * The "Initialize Project" command (the original's): the prompt that asks the coder agent to write or
 * improve the project's `OpenCode.md`, and the flag file that records that the project was initialised
 * (the original writes an empty `init` file in the data directory and offers the command until it exists).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Name of the flag file in the data directory (as the original's `InitFlagFilename`). */
export const INIT_FLAG_FILE = 'init';

/** Sent as the person's message by the Initialize Project command. */
export const INIT_PROMPT = `Look through this project and write an OpenCode.md file in its root, for coding agents like you who will work here. Keep it to about 20 lines and include:
1. How to build, lint, typecheck and test the project, and above all how to run a single test.
2. The code style: imports, formatting, types, naming, error handling, and any other conventions the code follows.

If an OpenCode.md exists already, improve it rather than starting over.
If the project has rules for other assistants (.cursor/rules/, .cursorrules or .github/copilot-instructions.md), read them and fold what they say into OpenCode.md.`;

/** Whether the project with data directory `dataDir` (absolute) was initialised: `<dataDir>/init` exists. */
export function isProjectInitialized(dataDir: string): boolean {
  return existsSync(join(dataDir, INIT_FLAG_FILE));
}

/**
 * Records that the project was initialised by creating `<dataDir>/init` (and the data directory, mode
 * 0700 as the original, if missing). Idempotent.
 * @throws the file-system error when the flag cannot be written
 */
export function markProjectInitialized(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  writeFileSync(join(dataDir, INIT_FLAG_FILE), '');
}
