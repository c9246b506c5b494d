/**
 * The shapes of the OS sandbox: what a command may write, read and reach, and how it is launched.
 * The sandbox knows the configuration and nothing of the tools or the agent; callers pick the
 * {@link SandboxLevel} from who approved what runs.
 */

/** The `sandbox` setting: on where the OS supports it, on or refuse to run commands, or off. */
export type SandboxMode = 'auto' | 'required' | 'off';

/**
 * How strictly one command is contained.
 * - `strict`: what runs without the person's approval (read-only commands, `allow` rules, session
 *   grants, `-p`): writes only to the project and a private temp directory, no network (DNS included)
 *   except through the proxy of `sandbox.network.allowedDomains`, secret places hidden.
 * - `network`: a command the person approved in the dialog: the same, with the network on.
 * - `none`: the person chose to run it outside the sandbox.
 */
export type SandboxLevel = 'strict' | 'network' | 'none';

/** The `sandbox` setting resolved: the string shorthand becomes `{ mode }` with empty lists. */
export interface SandboxSettings {
  mode: SandboxMode;
  /** extra writable paths (absolute, or `~/…`, or relative to the project) */
  allowWrite: readonly string[];
  /** extra paths hidden from commands, beside the built-in secret places */
  denyRead: readonly string[];
  /** hosts reachable through the proxy in `strict` level; `*.example.com` matches its subdomains */
  allowedDomains: readonly string[];
}

/** Every path absolute and resolved; built by `buildPolicy` from the settings and the project. */
export interface SandboxPolicy {
  projectDir: string;
  /** writable besides the project: `allowWrite` entries that exist */
  writable: readonly string[];
  /** inside writable places but mounted read-only: the files that decide what runs */
  protectedPaths: readonly string[];
  /** hidden from every command: secret places that exist (a directory is emptied, a file reads as empty) */
  secretPaths: readonly string[];
  allowedDomains: readonly string[];
}

/** What a caller needs to start one sandboxed program with `child_process.spawn`. */
export interface WrappedCommand {
  /** absolute path of the launcher (bwrap, sandbox-exec), or the program itself at level `none` */
  file: string;
  args: string[];
  /** variables to add to the spawn environment (proxy variables, TMPDIR) */
  env: Record<string, string>;
  /**
   * Variables the program does not get (`env.ts`: agent sockets, cloud tokens). The launcher already
   * removes them from the environment it is given; a caller that hands the program its environment
   * another way (the shell's snapshot) unsets them itself.
   */
  unsetEnv?: string[];
  /** the name the started process has once the launcher runs (`file` may be a small wrapper that execs it) */
  launcher?: string;
  /**
   * Call once the program has exited: removes files that decide what runs and that a `strict`
   * command created where none existed (a read-only mount can't cover a name that does not exist
   * yet); returns their paths, for the result to say so.
   */
  afterExit(): string[];
}

/** Options of one {@link Sandbox.wrap} call. */
export interface WrapOptions {
  level: SandboxLevel;
  /** more writable directories for this program only (the shell's private state and temp directory) */
  writable?: readonly string[];
  /**
   * A new session (setsid) inside the sandbox, with no controlling terminal, so that it cannot type
   * into the terminal (TIOCSTI). Not for a caller that already starts the launcher in a session of its
   * own and signals its process group.
   */
  newSession?: boolean;
  /** variables of the hidden kinds (`env.ts`) the program keeps: `shell.passEnv`, its own config entry's */
  keepEnv?: readonly string[];
}

/** Whether commands are sandboxed here, for the status bar and the start-up notice. */
export interface SandboxStatus {
  mode: SandboxMode;
  /** commands run in the sandbox */
  active: boolean;
  backend: 'bubblewrap' | 'seatbelt' | 'none';
  /** when not active: why, in one sentence (e.g. `bwrap is not installed`) */
  reason?: string;
  /**
   * Active because this process already runs inside the sandbox of the opencode command that started
   * it (`nested.ts`): commands are not wrapped again, the outer sandbox holds them.
   */
  inherited?: boolean;
}

/** An OS sandbox for one project. */
export interface Sandbox {
  /** resolves once detection ran (cached per process) */
  status(): Promise<SandboxStatus>;
  /**
   * Wraps `argv` (program and arguments) to run at `options.level`.
   * @throws {SandboxUnavailableError} when the mode is `required` and the sandbox can't start here
   *   (only for levels other than `none`)
   */
  wrap(argv: readonly string[], options: WrapOptions): Promise<WrappedCommand>;
  /** the policy commands run under */
  readonly policy: SandboxPolicy;
  /** stops the allowed-domains proxy, if it was started */
  close(): Promise<void>;
}

/** Thrown by {@link Sandbox.wrap} when `sandbox` is `required` and the sandbox cannot start. */
export class SandboxUnavailableError extends Error {
  constructor(reason: string) {
    super(
      `Commands are not run: "sandbox" is "required" in the configuration and the sandbox cannot start here (${reason}). ` +
        'Install bubblewrap (Linux) or set "sandbox" to "auto".',
    );
    this.name = 'SandboxUnavailableError';
  }
}
