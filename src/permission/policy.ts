/**
 * The permission decision: given the rules, the session's grants and what a tool
 * call touches, allow, deny or ask, and if it asks, what "allow for session" would cover. A pure
 * function; the service (`service.ts`) keeps the grants and asks the person.
 *
 * The order of checks:
 * 1. A `deny` rule that matches any part denies the whole call.
 * 2. Writes outside the project (edit/write/patch of a file outside it, a shell write to an absolute
 *    path outside it, or to a place that cannot be known) always ask: neither rules nor session grants
 *    allow them.
 * 3. A command that could not be analysed always asks. A part that is opaque code
 *    (`python3 -c`, `… | sh`, `PATH=./bin ls`, …) asks unless an `allow` rule names its program, and
 *    asks anyway while any `deny` rule exists for the tool (no session grant then).
 * 4. Every other part is allowed by its last matching rule, or by the default when no rule matches
 *    (the original's behaviour: read-only shell commands run, everything else asks), or by a session
 *    grant when it would ask. The call asks when any part still asks.
 */
import { realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { PROTECTED_PROJECT_PATHS as SANDBOX_PROTECTED_PATHS } from '../sandbox/policy.js';
import { resolveAllLinks } from './real-path.js';
import { MAY_REACH_NETWORK, REACHES_NETWORK } from './network-reasons.js';
import { describeRule, lastMatchingRule, wildcardMatch } from './rules.js';
import type {
  CommandPart,
  CommandSubject,
  FilesSubject,
  PermissionAction,
  PermissionRule,
  PermissionSubject,
  SecretReadSubject,
  SessionGrant,
  UrlSubject,
} from './types.js';

/** What the decision depends on besides the call. */
export interface PolicyContext {
  rules: readonly PermissionRule[];
  /** this session's grants */
  grants: readonly SessionGrant[];
  /** the project directory (absolute) */
  cwd: string;
  /** whether an absolute path is inside the project; default: by its text (see {@link projectPathCheck} for one that follows links) */
  isInsideProject?: (path: string) => boolean;
}

/** Whether an `alwaysAsks` reason of the analysis is a connection (`/dev/tcp/…`) rather than a system change. */
function reachesNetwork(reason: string): boolean {
  return reason.startsWith(REACHES_NETWORK) || reason.startsWith(MAY_REACH_NETWORK);
}

/** The decision. For `ask`: the scopes "allow for session" would grant, as grants and as the patterns shown. */
export type Verdict =
  | { action: 'allow' }
  | { action: 'deny'; message: string }
  | {
      action: 'ask';
      scopes: string[];
      grants: SessionGrant[];
      reasons: string[];
      /** those of `reasons` that no rule or grant can allow (outside the project, a file that decides what runs, a secret place, …) */
      beyondRules?: string[];
      /**
       * A command reaches where the OS sandbox refuses even a command the person approved: a write
       * outside the project or to a file that decides what runs, or a system change. (A write to a
       * place known only when it runs, or a connection, does not count: approved, they may work inside.)
       */
      leavesSandbox?: boolean;
    };

/**
 * Decides a call of `toolName` on `subject` (no subject: the tool as a whole).
 * Reads (view, ls, glob, grep, …) never get here: they do not ask.
 */
export function evaluatePermission(
  toolName: string,
  subject: PermissionSubject | undefined,
  ctx: PolicyContext,
): Verdict {
  const judge = new Judge(toolName, ctx);
  if (!subject) return judge.wholeTool();
  switch (subject.kind) {
    case 'command':
      return judge.command(subject);
    case 'files':
      return judge.files(subject);
    case 'url':
      return judge.url(subject);
    case 'secret-read':
      return judge.secretRead(subject);
  }
}

/** Devices a shell may "write" to without changing a file. */
const NOT_A_FILE = /^\/dev\/(null|zero|stdout|stderr|tty|fd\/\d+)$/;

/**
 * Wrappers that run a command with another user's rights. A session grant made for `sudo rm x` is
 * `sudo rm *`, and a grant of `rm *` does not cover `sudo rm y` (rules still match `rm y`).
 */
const PRIVILEGE_WRAPPERS = new Set(['sudo', 'doas']);

/**
 * Files inside the project that decide what runs or what is allowed: changing one can raise the
 * model's own permissions or run code at the next start, so it asks whatever the rules allow (deny
 * rules still deny). Paths relative to the project, `/`-separated; a folder entry covers what is under it.
 */
export const PROTECTED_PROJECT_PATHS: readonly { path: string; folder: boolean; why: string }[] = [
  // e.g. a "permission": {"bash": "allow"} written in by the model
  {
    path: '.opencode.json',
    folder: false,
    why: "changes opencode's configuration (permission rules, MCP servers, plugins)",
  },
  // e.g. .opencode/plugins/x.ts or .opencode/tools/x.yaml: code that runs at the next start
  {
    path: '.opencode',
    folder: true,
    why: "changes opencode's data folder (plugins, custom tools and commands run from there)",
  },
  // e.g. .git/hooks/pre-commit or core.fsmonitor in .git/config: run by the next git command
  { path: '.git', folder: true, why: "changes git's configuration or hooks (git runs them)" },
];

/**
 * Why changing `rel` (relative to the project, `/`-separated) always asks, or undefined: the table
 * above, then the files the OS sandbox mounts read-only for commands (`node_modules/.bin`, `.husky`,
 * `.envrc`, …), so a file tool or an allowed command's write asks for the same places the sandbox keeps.
 */
export function protectedPathReason(rel: string): string | undefined {
  const hit = PROTECTED_PROJECT_PATHS.find((p) => rel === p.path || (p.folder && rel.startsWith(`${p.path}/`)));
  if (hit) return `${hit.why}: ${rel}`;
  const kept = SANDBOX_PROTECTED_PATHS.find((p) => rel === p.path || rel.startsWith(`${p.path}/`));
  return kept && `changes a file that decides what runs (${kept.reason}): ${rel}`;
}

/**
 * Why a file tool asks without a rule, by what it does to the file (the reason line reads
 * `<path>: <reason>`). Example per row: the call that gets it.
 */
export const FILE_CHANGE_REASONS = {
  change: 'changes a file', // edit of src/a.ts, write over an existing file, patch's Update File
  create: 'creates a file', // write or edit (old_string empty) of a new file, patch's Add File, a move's destination
  delete: 'deletes a file', // patch's Delete File, a move's source
} as const;

/** One thing a rule is matched against, and what a session grant for it would be. */
interface Facet {
  /** the strings rules are matched against; the first is the one shown */
  subjects: string[];
  /** the strings session grants are matched against, when not `subjects` */
  grantSubjects?: string[];
  grant: SessionGrant;
  /** the matching rule's action, or the default */
  status: PermissionAction | 'default-allow';
  rule?: PermissionRule;
  /** why it asks without a rule */
  defaultReason?: string;
  /** the reason line shown, when not `subject: rule or default reason` (opaque code says it in its own words) */
  reason?: string;
  /** no session grant covers it and none is offered (opaque code while a deny rule exists) */
  ungrantable?: boolean;
}

class Judge {
  private readonly isInside: (path: string) => boolean;

  constructor(
    private readonly tool: string,
    private readonly ctx: PolicyContext,
  ) {
    this.isInside = ctx.isInsideProject ?? ((path) => isInsideByText(ctx.cwd, path));
  }

  wholeTool(): Verdict {
    const rule = lastMatchingRule(this.ctx.rules, this.tool, []);
    return this.decide(
      [
        {
          subjects: [this.tool],
          grant: this.grantOf('*', false),
          status: rule?.action ?? 'ask',
          rule,
          defaultReason: 'asks by default',
        },
      ],
      [],
      (facet) => `${facet.subjects[0]} is denied by the permission rule ${describeRule(facet.rule!)}`,
    );
  }

  files(subject: FilesSubject): Verdict {
    const facets: Facet[] = [];
    const always: string[] = [];
    for (const path of subject.paths) {
      if (this.isInside(path)) {
        const rel = relative(this.ctx.cwd, path).split(sep).join('/') || '.';
        const rule = lastMatchingRule(this.ctx.rules, this.tool, [rel, path]);
        const defaultReason =
          FILE_CHANGE_REASONS[
            subject.created?.includes(path) ? 'create' : subject.deleted?.includes(path) ? 'delete' : 'change'
          ];
        facets.push({
          subjects: [rel, path],
          grant: this.grantOf(rel, true),
          status: rule?.action ?? 'ask',
          rule,
          defaultReason,
        });
        const guarded = protectedPathReason(rel);
        if (guarded) always.push(guarded);
      } else {
        const rule = lastMatchingRule(this.ctx.rules, this.tool, [path]);
        // only a deny rule counts outside the project: allow rules and grants do not reach there
        facets.push({
          subjects: [path],
          grant: this.grantOf(path, true),
          status: rule?.action === 'deny' ? 'deny' : 'allow',
          rule,
        });
        always.push(`outside the project: ${path}`);
      }
    }
    return this.decide(
      facets,
      always,
      (f) => `changing ${f.subjects[0]} is denied by the permission rule ${describeRule(f.rule!)}`,
    );
  }

  /** A secret place read by a file tool: a deny rule denies; nothing else allows it without the person. */
  secretRead(subject: SecretReadSubject): Verdict {
    const rule = lastMatchingRule(this.ctx.rules, this.tool, [subject.path]);
    const facet: Facet = {
      subjects: [subject.path],
      grant: this.grantOf(subject.path, true),
      status: rule?.action === 'deny' ? 'deny' : 'allow',
      rule,
    };
    return this.decide(
      [facet],
      [`reads ${subject.path}, which holds ${subject.reason}`],
      (f) => `reading ${f.subjects[0]} is denied by the permission rule ${describeRule(f.rule!)}`,
    );
  }

  url(subject: UrlSubject): Verdict {
    let host = '';
    let hostname = '';
    try {
      ({ host, hostname } = new URL(subject.url));
    } catch {
      // the tool validates URLs before asking; an odd one is matched by its text only
    }
    const subjects = [...new Set([subject.url, host, hostname].filter(Boolean))];
    const rule = lastMatchingRule(this.ctx.rules, this.tool, subjects);
    const facet: Facet = {
      subjects,
      grant: this.grantOf(host || subject.url, true),
      status: rule?.action ?? 'ask',
      rule,
      defaultReason: 'reads from the network',
    };
    return this.decide(
      [facet],
      [],
      (f) => `fetching ${subject.url} is denied by the permission rule ${describeRule(f.rule!)}`,
    );
  }

  command(subject: CommandSubject): Verdict {
    const partFacets = subject.parts.map((part) => this.commandFacets(part));
    const facets = partFacets.flat();
    const deniedMessage = (f: Facet) =>
      `\`${f.subjects[0]}\` is denied by the permission rule ${describeRule(f.rule!)}`;

    if (subject.unanalysable !== undefined) {
      // deny rules hold even here: on every part found and on the raw text
      const denied = facets.find((f) => f.status === 'deny');
      if (denied) return { action: 'deny', message: permissionDeniedMessage(deniedMessage(denied)) };
      const rawDeny = this.ctx.rules.find(
        (r) =>
          r.action === 'deny' &&
          wildcardMatch(r.tool, this.tool) &&
          (r.pattern === '*' || wildcardMatch(r.pattern, subject.command)),
      );
      if (rawDeny) {
        return {
          action: 'deny',
          message: permissionDeniedMessage(
            `\`${subject.command}\` is denied by the permission rule ${describeRule(rawDeny)}`,
          ),
        };
      }
      return {
        action: 'ask',
        scopes: [],
        grants: [],
        reasons: [`the command could not be analysed (${subject.unanalysable}); it asks every time`],
      };
    }

    // a system change or a `/dev/tcp` connection: as a write outside the project, whatever the rules allow
    const always: string[] = [...(subject.alwaysAsks ?? [])];
    let leavesSandbox = (subject.alwaysAsks ?? []).some((reason) => !reachesNetwork(reason));
    for (const write of subject.writes) {
      if (write.path && NOT_A_FILE.test(write.path)) continue;
      if (!write.path) {
        leavesSandbox ||= write.outsideProject === true;
        always.push(
          write.outsideProject
            ? `writes outside the project, to a place known only when it runs: ${write.target}`
            : `writes to a place that cannot be known before it runs: ${write.target}`,
        );
      } else if (!this.isInside(write.path)) {
        leavesSandbox = true;
        always.push(`writes outside the project: ${write.path}`);
      } else {
        const guarded = protectedPathReason(relative(this.ctx.cwd, write.path).split(sep).join('/'));
        if (guarded) {
          leavesSandbox = true;
          always.push(guarded);
        }
      }
    }
    // A read-only command allowed by default must still ask when the line writes a file in the project
    // that no writing command accounts for: `echo x > notes.txt` is `echo` plus a write, and a
    // redirection can hang on any command. (Writes outside the project ask anyway.)
    const allPartsReadOnly = subject.parts.every((p) => p.readOnly);
    const unaccounted = subject.writes.filter(
      (w) =>
        (w.via === 'redirect' || allPartsReadOnly) && !!w.path && !NOT_A_FILE.test(w.path) && this.isInside(w.path),
    );
    const writesAFile = subject.writes.some((w) => !w.path || !NOT_A_FILE.test(w.path));
    const unexplained = !subject.readOnly && !writesAFile && allPartsReadOnly;
    // A write tied to one part asks for that part and names it with the write:
    // `git status && echo done > status.txt` asks for `echo done > status.txt: writes a file`, and
    // `git status` stays allowed. A write tied to no single part (`{ a; b; } > log`) asks for all.
    for (const write of unaccounted) {
      const part = write.part !== undefined ? subject.parts[write.part] : undefined;
      const main = write.part !== undefined ? partFacets[write.part]?.[0] : undefined;
      if (!part || !main) continue;
      if (main.status === 'default-allow') {
        main.status = 'ask';
        main.reason = `${write.redirect !== undefined ? `${part.text} ${write.redirect} ${write.target}` : part.text}: writes a file`;
      }
    }
    const untied = unaccounted.some((w) => w.part === undefined || !subject.parts[w.part]);
    if (untied || unexplained) {
      const why = untied ? 'writes a file' : 'the command as a whole is not read-only';
      for (const facet of facets) {
        if (facet.status === 'default-allow') {
          facet.status = 'ask';
          facet.defaultReason = why;
        }
      }
    }
    if (subject.parts.length === 0 && !subject.readOnly && always.length === 0) {
      always.push('the command changes something no simple command in it accounts for');
    }
    const verdict = this.decide(facets, always, deniedMessage);
    return verdict.action === 'ask' && leavesSandbox ? { ...verdict, leavesSandbox } : verdict;
  }

  /**
   * A command's text is judged by every rule; each wrapper it runs through (`sudo`, `timeout`, …) is
   * judged as well by the rules that name it, so `"sudo *": "deny"` holds for `sudo rm x` while
   * `"*": "deny"` does not make `timeout 5 ls` a different command from `ls`.
   */
  private commandFacets(part: CommandPart): Facet[] {
    // quotes resolved and git's global options dropped: `git -C . 'pu'sh` is judged as `git push` too
    // and a link by what it runs: `./del x` (del → /bin/rm) is also `rm x`
    const subjects = [
      part.text,
      ...(part.resolvedText !== undefined ? [part.resolvedText] : []),
      ...(part.linkText !== undefined ? [part.linkText] : []),
    ];
    const rule = lastMatchingRule(this.ctx.rules, this.tool, subjects);
    const privilege = part.wrappers.filter((w) => PRIVILEGE_WRAPPERS.has(w));
    const privileged = (text: string) => [...new Set(privilege), text].join(' ');
    const main: Facet = {
      subjects,
      grantSubjects: [privileged(part.text)],
      grant: this.grantOf(privileged(part.scope), false),
      status: rule?.action ?? (part.readOnly ? 'default-allow' : 'ask'),
      rule,
      defaultReason: 'not a read-only command',
    };
    if (part.opaque !== undefined && main.status !== 'deny' && !this.allowsOpaque(part, rule)) {
      // opaque code: never allowed by the read-only list or a wildcard rule
      main.status = 'ask';
      main.rule = undefined;
      main.reason = part.opaque;
      main.ungrantable = this.anyDenyRule();
    }
    const facets: Facet[] = [main];
    for (const wrapper of new Set(part.wrappers)) {
      const text = `${wrapper} ${part.text}`;
      const wrapperRule = lastMatchingRule(this.ctx.rules, this.tool, [text], (r) => namesCommand(r.pattern, wrapper));
      if (wrapperRule) {
        facets.push({
          subjects: [text],
          grant: this.grantOf(`${wrapper} ${part.scope}`, false),
          status: wrapperRule.action,
          rule: wrapperRule,
        });
      }
    }
    return facets;
  }

  /**
   * Opaque code runs only under an `allow` rule that names its program (`"python3 *": "allow"` for
   * `python3 -c …`; not `"*"`), and only while no `deny` rule exists for the tool: the code could do
   * what the deny rule forbids.
   */
  private allowsOpaque(part: CommandPart, rule: PermissionRule | undefined): boolean {
    if (rule?.action !== 'allow' || this.anyDenyRule()) return false;
    const program = (part.resolvedText ?? part.text).split(' ', 1)[0]!;
    return namesCommand(rule.pattern, program);
  }

  private anyDenyRule(): boolean {
    return this.ctx.rules.some((r) => r.action === 'deny' && wildcardMatch(r.tool, this.tool));
  }

  /** Puts facets together: a deny wins, then anything that must always ask, then asks not covered by a grant. */
  private decide(facets: Facet[], alwaysAsk: string[], deniedMessage: (facet: Facet) => string): Verdict {
    const denied = facets.find((f) => f.status === 'deny');
    if (denied) return { action: 'deny', message: permissionDeniedMessage(deniedMessage(denied)) };
    const asking = facets.filter((f) => f.status === 'ask' && (f.ungrantable || !this.granted(f)));
    if (asking.length === 0 && alwaysAsk.length === 0) return { action: 'allow' };
    const grants: SessionGrant[] = [];
    for (const facet of asking) {
      if (!facet.ungrantable && !grants.some((g) => g.pattern === facet.grant.pattern)) grants.push(facet.grant);
    }
    const reasons = [
      ...asking.map(
        (f) =>
          f.reason ??
          `${(f.grantSubjects ?? f.subjects)[0]}: ${f.rule ? `the rule ${describeRule(f.rule)}` : f.defaultReason}`,
      ),
      ...alwaysAsk,
    ];
    return {
      action: 'ask',
      scopes: grants.map((g) => g.pattern),
      grants,
      reasons,
      ...(alwaysAsk.length > 0 && { beyondRules: [...alwaysAsk] }),
    };
  }

  private granted(facet: Facet): boolean {
    return this.ctx.grants.some(
      (g) =>
        g.tool === this.tool &&
        (facet.grantSubjects ?? facet.subjects).some((s) =>
          g.literal ? g.pattern === s : wildcardMatch(g.pattern, s),
        ),
    );
  }

  private grantOf(pattern: string, literal: boolean): SessionGrant {
    return { tool: this.tool, pattern, literal };
  }
}

/** A rule pattern "names" a command when its first word is the command (`sudo *`, `sudo*`, `sudo`). */
function namesCommand(pattern: string, command: string): boolean {
  const first = pattern.split(' ', 1)[0]!;
  return first === command || first === `${command}*`;
}

function permissionDeniedMessage(what: string): string {
  return `Permission denied: ${what}. This is the user's standing rule: do not try to get around it; do the task another way or ask the user.`;
}

/** Whether absolute `path` is `dir` or lies under it, by the text of the paths. */
export function isInsideByText(dir: string, path: string): boolean {
  const rel = relative(resolve(dir), resolve(path));
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/**
 * A check that a path is inside `cwd` both by its text and after following symbolic links (a link in
 * the project to `~/.bashrc` is outside). Every link is followed, dangling ones included (a link to
 * `/outside/new.txt` that does not exist yet is outside); a link loop counts as outside.
 */
export function projectPathCheck(cwd: string): (path: string) => boolean {
  const realCwd = realpathOrSelf(cwd);
  return (path) => {
    if (!isInsideByText(cwd, path)) return false;
    const real = resolveAllLinks(path);
    return real !== undefined && isInsideByText(realCwd, real);
  };
}

function realpathOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
