/**
 * A declarative tool file's tool as a {@link Tool} of the registry: runs its `command`
 * argv (placeholders substituted as whole arguments, `argv.ts`) or its `script` (arguments as JSON on
 * stdin and as `OPENCODE_ARG_<NAME>` variables), asks permission like bash unless `readOnly`, and turns
 * what the program printed into the result: stdout, then stderr under a label, an error with the exit
 * code when it failed, decoded, cleaned and cut to the tool's limits (`output.ts`).
 */
import { isAbsolute, resolve } from 'node:path';
import { levelForGrant, type Sandbox } from '../sandbox/index.js';
import { sandboxProcess, type SandboxedProcess } from '../sandbox/process.js';
import { withoutCredentials } from '../tools/redact.js';
import { NON_INTERACTIVE_ENV } from '../tools/shell.js';
import { errorResult, resultFromError, type Tool, type ToolResult } from '../tools/tool.js';
import { truncateOutput } from '../tools/truncate.js';
import { formatArgv, substituteArgv } from './argv.js';
import type { DeclarativeToolSpec } from './declarative-spec.js';
import { decodeOutput } from './decode-output.js';
import { argumentVariables, oversizedArgument } from './large-arguments.js';
import { removeControlCharacters } from './output.js';
import { runProcess, scriptArgv } from './process.js';

export { argumentVariable } from './large-arguments.js';

/** Replaces `${VAR}` with our environment's value (empty when unset). */
export function expandVariables(text: string, env: Record<string, string | undefined>): string {
  return text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => env[name] ?? '');
}

export interface DeclarativeToolOptions {
  /** the project root: the default cwd, and what a relative `cwd` is relative to */
  projectDir: string;
  /** our environment (default `process.env`) */
  env?: Record<string, string | undefined>;
  /** credential variables to pass anyway (config `shell.passEnv`; by default the program gets none, as bash's shell) */
  passEnv?: readonly string[];
  /**
   * The project's OS sandbox: the program runs in it as a bash command does (strict unless the person
   * approved the call; the spec's `sandbox` may add the network or writable places). Absent: no sandbox.
   */
  sandbox?: Sandbox;
}

/** Builds the tool. Its `run` never rejects. */
export function createDeclarativeTool(spec: DeclarativeToolSpec, options: DeclarativeToolOptions): Tool {
  const baseEnv = options.env ?? process.env;
  return {
    name: spec.name,
    description: spec.description,
    inputSchema: spec.parameters,
    readOnly: spec.readOnly,
    // a tool that changes things asks for every call (below) before its program starts; a read-only one never asks
    ...(spec.readOnly ? {} : { asks: 'call' as const }),
    async run(input, ctx): Promise<ToolResult> {
      if (input === null || typeof input !== 'object' || Array.isArray(input)) {
        return errorResult(
          `The input of ${spec.name} must be a JSON object of parameters; you sent ${String(JSON.stringify(input)).slice(0, 100)}`,
        );
      }
      const args = input as Record<string, unknown>;
      const missing = spec.parameters.required.filter((name) => args[name] === undefined || args[name] === null);
      if (missing.length > 0)
        return errorResult(`Invalid input for ${spec.name}: ${missing.map((m) => `${m} is required`).join('; ')}`);

      const argv = spec.command ? substituteArgv(spec.command, args) : scriptArgv(spec.script!);
      const tooLong = oversizedArgument(argv, spec.name);
      if (tooLong) return errorResult(tooLong);
      const cwdText = spec.cwd === undefined ? undefined : expandVariables(spec.cwd, baseEnv);
      const cwd =
        cwdText === undefined
          ? options.projectDir
          : isAbsolute(cwdText)
            ? cwdText
            : resolve(options.projectDir, cwdText);
      // provider keys stay out, as from the bash tool's shell (tools/redact.ts); `${VAR}` in `env` may still name one on purpose
      const env: Record<string, string | undefined> = {
        ...withoutCredentials(baseEnv, options.passEnv),
        ...NON_INTERACTIVE_ENV,
      };
      for (const [key, value] of Object.entries(spec.env)) env[key] = expandVariables(value, baseEnv);
      const shown = formatArgv(argv);
      let sandboxed: SandboxedProcess;
      try {
        let grant;
        if (!spec.readOnly) {
          grant = await ctx.askPermission({
            action: 'execute',
            description: `Run ${spec.name}: ${shown}`,
            // `command` is what the dialog shows (highlighted like a bash command); `argv` the exact arguments
            params: { command: shown, argv, tool: spec.name, ...(spec.script ? { stdin: JSON.stringify(args) } : {}) },
            path: cwd,
          });
        }
        ctx.signal.throwIfAborted();
        sandboxed = await sandboxProcess(options.sandbox, argv, {
          level: levelForGrant(grant),
          settings: spec.sandbox,
          pathVariable: env.PATH,
          keepEnv: [...Object.keys(spec.env), ...(options.passEnv ?? [])],
        });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT')
          return errorResult(`${spec.name} could not start ${argv[0]}: ${(err as Error).message}`);
        return resultFromError(err);
      }

      const startTime = Date.now();
      // large values go in files, not in the environment, where they would stop the program from starting (E2BIG)
      const passed = argumentVariables(args);
      let removed: string[] = [];
      const ran = await runProcess({
        argv: [sandboxed.file, ...sandboxed.args],
        cwd,
        env: { ...env, ...passed.env, ...sandboxed.env },
        stdin: spec.script ? JSON.stringify(args) : '',
        timeoutMs: spec.timeoutMs,
        signal: ctx.signal,
      }).finally(() => {
        removed = sandboxed.release();
        passed.cleanup();
      });
      const metadata: Record<string, unknown> = {
        argv,
        exit_code: ran.exitCode,
        start_time: startTime,
        end_time: Date.now(),
        timed_out: ran.timedOut,
      };
      if (ran.startError) return errorResult(`${spec.name} could not start ${argv[0]}: ${ran.startError}`, metadata);

      const stdout = formatStdout(clean(ran.stdout), spec.outputFormat);
      const stderr = clean(ran.stderr);
      const parts: string[] = [];
      if (stdout) parts.push(stdout);
      if (stderr) parts.push(`stderr:\n${stderr}`);
      // a protected name that did not exist could not be mounted read-only: what the program created there is gone
      for (const path of removed)
        parts.push(
          `(the sandbox removed ${path}, which ${spec.name} created: a file that decides what runs is not created without the person's approval)`,
        );
      if (ran.endedBackground)
        parts.push(
          `${spec.name} exited leaving processes of its own running (a background child holding its output, say); they were ended`,
        );
      let isError = false;
      if (ran.timedOut) {
        parts.push(`${spec.name} timed out after ${spec.timeoutMs} ms; its process group was killed`);
        isError = true;
      } else if (ran.canceled) {
        parts.push('Tool execution canceled by user');
        isError = true;
      } else if (ran.exitCode !== 0) {
        parts.push(`${spec.name} failed with exit code ${ran.exitCode ?? 'none (killed by a signal)'}`);
        isError = true;
      }
      const cut = truncateOutput(parts.length ? parts.join('\n') : 'no output', 'note', spec);
      return {
        output: cut.text,
        isError,
        metadata,
        ...(cut.truncated ? { truncated: true } : {}),
        ...(ran.timedOut ? { outcome: 'timeout' as const } : {}),
      };
    },
  };
}

function clean(bytes: Buffer): string {
  return removeControlCharacters(decodeOutput(bytes)).replace(/\n+$/, '');
}

/** `json` output is pretty-printed; text that is not JSON is kept as it is. */
function formatStdout(text: string, format: 'text' | 'json'): string {
  if (format !== 'json' || text.trim() === '') return text;
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
