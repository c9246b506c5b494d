/**
 * Permission shapes. The service lives in `service.ts`, the rules in
 * `rules.ts`, the decision in `policy.ts`; tools only see {@link PermissionAsk}.
 */

/** What a tool shows the person: the dialog's title line and content. */
export interface PermissionAskInput {
  /** e.g. `execute`, `write`, `fetch` */
  action: string;
  /** one line shown to the person, e.g. `Execute command: npm test` */
  description: string;
  /** tool-specific details for the dialog: `command` (bash), `file_path` and `diff` (edit, write, patch), `url` (fetch) */
  params: Record<string, unknown>;
  /** the file or directory concerned (absolute); defaults to the project directory */
  path?: string;
  /**
   * The call may be run outside the OS sandbox if the person chooses so: the command cannot work
   * inside it, or it just failed because of it. The dialog then also offers "Run outside the sandbox".
   */
  sandboxEscape?: boolean;
  /**
   * The command will run inside an OS sandbox that the person can let it out of. Then a command the
   * analysis finds reaching where the sandbox refuses (a write outside the project or to a file that
   * decides what runs, a system change) is offered "Run outside the sandbox" up front, as with
   * `sandboxEscape`.
   */
  sandboxed?: boolean;
}

/**
 * What the rules are matched against. A tool that gives none is judged as a whole:
 * only the `*` pattern of its rules applies, and "allow for session" covers the tool.
 */
export type PermissionSubject = CommandSubject | FilesSubject | UrlSubject | SecretReadSubject;

/**
 * A file tool's read of a secret place (`~/.ssh`, `~/.aws`, opencode's own environment, …). It asks
 * whatever the rules allow, as a write outside the project does: neither an `allow` rule (a tool-wide
 * `"view": "allow"` included) nor a session grant reaches it, and only a `deny` rule decides it alone.
 */
export interface SecretReadSubject {
  kind: 'secret-read';
  /** absolute */
  path: string;
  /** what the place holds, e.g. `SSH keys` */
  reason: string;
}

/** A shell command, analysed (`command-subject.ts` builds it from the shell analysis). */
export interface CommandSubject {
  kind: 'command';
  /** the raw command, as the model sent it */
  command: string;
  /** every simple command found, in order */
  parts: CommandPart[];
  /** files the command writes (redirections, tee, sed -i, …) */
  writes: CommandWrite[];
  /** the analysis found nothing that changes anything: every part is read-only and nothing is written */
  readOnly: boolean;
  /** set when the command could not be analysed (then `parts` may be incomplete): why */
  unanalysable?: string;
  /** what reaches beyond the project without naming a file (a system change, `/dev/tcp`): asks whatever the rules allow */
  alwaysAsks?: string[];
}

/** One simple command of a {@link CommandSubject}. */
export interface CommandPart {
  /** e.g. `git commit -m x`: without env prefixes and wrappers; what bash rules match */
  text: string;
  /** wrappers it ran through, e.g. `['sudo', 'timeout']` */
  wrappers: string[];
  /** this command alone is on the safe read-only table with read-only arguments */
  readOnly: boolean;
  /** what "allow for session" grants for it, e.g. `git checkout *` */
  scope: string;
  /**
   * the command with quotes resolved and git's global options dropped, when that differs from `text`:
   * `git push` for `git -C . 'pu'sh`. Rules match it as well.
   */
  resolvedText?: string;
  /** the command named by what its program really is, when it is a symbolic link to another name: `rm x` for `./del x` */
  linkText?: string;
  /** set when it runs code the analysis cannot see: why, e.g. `runs code the check cannot see: python3 -c …` */
  opaque?: string;
}

/** A file a command writes. */
export interface CommandWrite {
  /** as written in the command, e.g. `~/.bashrc` */
  target: string;
  /** absolute, when it could be resolved; a write whose place is unknown is treated as outside the project */
  path?: string;
  via: string;
  /** the part ({@link CommandSubject.parts} index) the write belongs to, when it is one: the command a redirection hangs on, or a writing command (`tee log`) */
  part?: number;
  /** the redirection operator (`>`, `>>`, …) when the write is a redirection */
  redirect?: string;
  /** without `path`: the place is outside the project all the same (npm's global folder, a tool's folder in HOME) */
  outsideProject?: boolean;
}

/** Files a tool changes (edit, write, patch; a move names both paths). */
export interface FilesSubject {
  kind: 'files';
  /** absolute paths */
  paths: string[];
  /** those of `paths` the call creates (a new file): the request says "creates a file" for them */
  created?: readonly string[];
  /** those of `paths` the call deletes (patch's Delete File, a move's source): "deletes a file" */
  deleted?: readonly string[];
}

/** A URL a tool reads (fetch). */
export interface UrlSubject {
  kind: 'url';
  url: string;
}

/**
 * Asks the rules, then if need be the person, for permission. `input` is what the dialog shows;
 * `subject` is what the rules and session grants are matched against.
 * Resolves when allowed; throws `PermissionDeniedError` when the person denies (the turn ends), a
 * `PermissionRuleError` when a rule denies (the model is told and goes on), and an `AbortError` when
 * the signal aborts while waiting.
 */
export type PermissionAsk = (input: PermissionAskInput, subject?: PermissionSubject) => Promise<PermissionGrant | void>;

/**
 * How an allowed request was allowed. What ran without the person's word (`by` anything but
 * `person`) runs in the strictest sandbox; a request the person approved runs in the sandbox with the
 * network on, or outside the sandbox when they chose so (`outsideSandbox`). An ask that resolves with
 * nothing (a caller that only knows "allowed") counts as allowed without the person's word.
 */
export interface PermissionGrant {
  /** a rule or the defaults (read-only calls), a grant for the session, the unattended mode of `-p`, or the person in a dialog */
  by: 'rule' | 'session' | 'unattended' | 'person';
  /** the person chose "Run outside the sandbox" */
  outsideSandbox: boolean;
}

/** A pending request, as published to the UI (the permission dialog). */
export interface PermissionRequest extends Required<Omit<PermissionAskInput, 'path' | 'sandboxEscape' | 'sandboxed'>> {
  /** "Run outside the sandbox" is offered (see {@link PermissionAskInput.sandboxEscape}) */
  sandboxEscape?: boolean;
  id: string;
  sessionId: string;
  toolName: string;
  /** absolute path the request concerns: the file, or the directory a command runs in */
  path: string;
  /**
   * What "allow for session" would allow (and "always allow in this project" would write as `allow`
   * rules of `toolName`), as rule patterns: `['git checkout *']`, `['src/a.ts']`, `['example.com']`,
   * `['*']` (the whole tool). Empty when nothing beyond this call can be granted: a write outside the
   * project, or a command that could not be analysed.
   */
  scopes: string[];
  /** why it asks, one line each, e.g. `rm -rf build: not a read-only command`, `writes outside the project: /home/u/.bashrc` */
  reasons: string[];
  /** unix ms */
  createdAt: number;
  /** the tool call that asks, when the agent loop made the request (an editor front end shows the request on that call, e.g. ACP) */
  toolCallId?: string;
}

/**
 * The person's answer: this call only; the request's scopes for the rest of the session; the scopes
 * as `allow` rules in the project's `.opencode.json` (and for this session at once); this call only
 * and outside the OS sandbox, with the person's full access (offered only for a request with
 * `sandboxEscape`, never remembered); or no.
 */
export type PermissionDecision = 'allow' | 'allow_session' | 'allow_always' | 'allow_outside_sandbox' | 'deny';

/** What a rule does with what it matches. */
export type PermissionAction = 'allow' | 'ask' | 'deny';

/** One rule of the `permission` setting, flattened in file order (the last matching rule wins). */
export interface PermissionRule {
  /** tool name pattern: `bash`, `edit`, `github_create_issue`, `*` */
  tool: string;
  /** subject pattern: `git status*`, `src/*`, `*.example.com`, `*` */
  pattern: string;
  action: PermissionAction;
}

/** What "allow for session" stored: `pattern` allows subjects of `tool` (literal: compared as is, for files and hosts). */
export interface SessionGrant {
  tool: string;
  pattern: string;
  literal: boolean;
}
