/**
 * The `bash` tool (the original's, fixed): runs a command in the session's persistent shell
 * (`createShell` in `shell.ts`). Fixes over the original: a failing command is an error result
 * (`isError`), a whitespace-only command is refused instead of crashing, a timeout kills the whole
 * process group and returns at once, and the command is parsed: banned commands are found
 * anywhere in the line, and the permission rules judge every simple command in it, so `ls && rm …`
 * never passes as `ls` (as it did in the original).
 */
import { homedir } from 'node:os';
import { z } from 'zod';
import { analyseForPermission } from '../permission/command-subject.js';
import { describeSandboxFailure, levelForGrant, SandboxUnavailableError } from '../sandbox/index.js';
import { redactSecrets } from './redact.js';
import { defineTool, MAX_OUTPUT_CHARS, ToolError, type ShellRunner, type ToolContext } from './tool.js';

const DESCRIPTION = `Runs a shell command (bash) in the project and returns its output.

- The working directory and exported variables persist between calls (\`cd src\` stays in effect); shell functions, aliases and \`set\` options do not.
- While the shell is not in the project directory (after a \`cd\`), the result starts with \`(ran in DIR)\`; a result whose command changed the directory says where the shell is now.
- No terminal and no stdin: interactive programs get end-of-input. Pass non-interactive flags (\`-y\`, \`--no-edit\`, \`-m "msg"\`). Pagers and editors are disabled.
- timeout: milliseconds, default 60000, max 600000. On timeout the command and every process it started are killed.
- stdout and stderr are each cut to 30000 characters (start and end kept): filter long output with head, tail or grep.
- A non-zero exit code makes the result an error ending in "Exit code N".
- Start servers in the background with output to a file: \`npm run dev > "$TMPDIR/dev.log" 2>&1 &\`.
- Commands usually run in a sandbox: they can write only in the project and \`$TMPDIR\`, read no credentials (~/.ssh, ~/.aws, …), and reach no network unless the person approved the command; background processes end with the command. A result that says the sandbox refused something is not the program's fault: don't retry it the same way.
- Don't use it to find, read or change files (find, grep, cat, head, sed, echo >): use glob, grep, view, edit and write, which are faster and tracked. Use it for builds, tests, git and other programs.
- Not allowed: curl, wget and other network or browser programs; use fetch for web pages.
- Commands other than simple read-only ones (ls, pwd, git status, git diff, …) ask the person first. Join dependent steps with && in one call; quote paths with spaces.`;

/** Default and maximum timeouts in ms (the original's). */
export const DEFAULT_TIMEOUT_MS = 60_000;
export const MAX_TIMEOUT_MS = 600_000;

/** Live output is reported to the UI at most this often. */
const PROGRESS_INTERVAL_MS = 250;
/** The UI gets the last this-many characters of the output so far. */
const PROGRESS_TAIL_CHARS = 8_000;

const parameters = z.object({
  command: z.string().describe('The command to run'),
  timeout: z.number().optional().describe('Timeout in milliseconds (default 60000, max 600000)'),
});

/** The timeout to use: the default for a missing or non-positive value, capped at the maximum. */
export function effectiveTimeoutMs(timeout: number | undefined): number {
  if (timeout === undefined || !(timeout > 0)) return DEFAULT_TIMEOUT_MS;
  return Math.min(timeout, MAX_TIMEOUT_MS);
}

export const bashTool = defineTool({
  name: 'bash',
  description: DESCRIPTION,
  parameters,
  asks: 'subject', // asks with what it touches before it changes anything
  // stdout and stderr are each already cut to MAX_OUTPUT_CHARS by the shell; leave room for both
  maxOutputChars: 2 * MAX_OUTPUT_CHARS + 1_000,
  async run({ command, timeout }, ctx) {
    if (command.trim() === '') throw new ToolError('The command is empty. Send the command to run in `command`.');
    // relative write targets land where the shell is now (`cd` persists between calls)
    const { analysis, subject } = await analyseForPermission(command, {
      cwd: ctx.shell().cwd,
      home: process.env.HOME || homedir(),
      projectDir: ctx.cwd, // a shell left outside the project by an earlier cd: what runs there writes there
    });
    const banned = analysis.banned;
    if (banned) throw new ToolError(`Command '${banned.name}' is not allowed: ${banned.reason}.`);

    // every command goes to the policy: read-only ones run without asking the person unless a rule says otherwise
    // after the sandbox made this command fail, the dialog offers to run it outside; so it does at once
    // for a command that cannot work inside it (the permission service tells which from the analysis)
    const escape = sandboxRefused.get(ctx.shell())?.has(command) ?? false;
    const sandboxed = (await ctx.shell().sandboxActive?.()) ?? false;
    const grant = await ctx.askPermission(
      {
        action: 'execute',
        description: `Execute command: ${command}`,
        params: { command },
        path: ctx.cwd,
        ...(escape ? { sandboxEscape: true } : {}),
        ...(sandboxed ? { sandboxed: true } : {}),
      },
      subject,
    );
    const level = levelForGrant(grant);
    ctx.signal.throwIfAborted();

    const timeoutMs = effectiveTimeoutMs(timeout);
    const progress = progressReporter(ctx);
    const ranIn = ctx.shell().cwd;
    const startTime = Date.now();
    const result = await ctx
      .shell()
      .exec(command, { timeoutMs, signal: ctx.signal, onOutput: progress.add, sandbox: level })
      .catch((err: unknown) => {
        progress.stop();
        // "sandbox": "required" where it cannot start: the reason, for the model and the person
        if (err instanceof SandboxUnavailableError) throw new ToolError(err.message);
        throw err;
      });
    const endTime = Date.now();
    progress.stop();
    const nowIn = ctx.shell().cwd;

    const parts: string[] = [];
    // after a `cd`, say where: `git status` of another repository must not read as this project's
    if (ranIn !== ctx.cwd) parts.push(`(ran in ${ranIn})`);
    const stdout = trimTrailingNewlines(result.stdout);
    const stderr = trimTrailingNewlines(result.stderr);
    if (stdout) parts.push(stdout);
    if (stderr) parts.push(stderr);
    const failed = result.interrupted || result.exitCode !== 0;
    if (!stdout && !stderr && !failed) parts.push('no output');
    if (nowIn !== ranIn) parts.push(`(the working directory is now ${nowIn})`);
    const refusal =
      result.sandboxed && !result.interrupted ? describeSandboxFailure(`${stdout}\n${stderr}`) : undefined;
    if (refusal) {
      parts.push(refusal);
      rememberRefusal(ctx.shell(), command);
    }
    if (result.timedOut) parts.push(`Command timed out after ${timeoutMs} ms and was killed`);
    else if (result.interrupted) parts.push('Command was aborted before completion');
    else if (result.exitCode !== 0) parts.push(`Exit code ${result.exitCode}`);

    return {
      output: parts.join('\n'),
      isError: failed,
      metadata: {
        start_time: startTime,
        end_time: endTime,
        exit_code: result.exitCode,
        timed_out: result.timedOut,
        cwd: nowIn,
        sandboxed: result.sandboxed ?? false,
      },
    };
  },
});

/** Commands the sandbox made fail, per session shell: asking for one again offers to run it outside. */
const sandboxRefused = new WeakMap<ShellRunner, Set<string>>();

function rememberRefusal(shell: ShellRunner, command: string): void {
  let commands = sandboxRefused.get(shell);
  if (!commands) sandboxRefused.set(shell, (commands = new Set()));
  commands.add(command);
}

function trimTrailingNewlines(text: string): string {
  return text.replace(/\n+$/, '');
}

/** Collects output chunks and passes the tail of the output so far to `ctx.onProgress`, throttled. */
function progressReporter(ctx: ToolContext): { add: (chunk: string) => void; stop: () => void } {
  const onProgress = ctx.onProgress;
  if (!onProgress) return { add: () => {}, stop: () => {} };
  let text = '';
  let timer: NodeJS.Timeout | undefined;
  let lastSent = 0;
  const send = () => {
    timer = undefined;
    lastSent = Date.now();
    onProgress(redactSecrets(text)); // live output is shown: the keys we hold stay hidden there too
  };
  return {
    add(chunk) {
      text = (text + chunk).slice(-PROGRESS_TAIL_CHARS);
      if (timer) return;
      const wait = Math.max(0, lastSent + PROGRESS_INTERVAL_MS - Date.now());
      timer = setTimeout(send, wait);
    },
    stop() {
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
  };
}
