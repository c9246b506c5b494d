/**
 * Shell parsing: turns a bash command line into a small, plain syntax tree that
 * `shell-analysis.ts` walks. The parsing itself is mvdan/sh's bash parser (the `mvdan-sh` package, a
 * GopherJS build: synchronous, full bash syntax including heredocs, process substitution, `[[ ]]`,
 * arithmetic and extglobs). This file is the only one that knows its object model.
 *
 * The package is loaded on first use, not at import: it costs about 150–300 ms to initialise, and
 * commands that never analyse a shell command (`opencode --version`) must not pay for it. It is
 * resolved from node_modules at run time rather than bundled, like better-sqlite3.
 */
import { createRequire } from 'node:module';

/** A parsed command line: its statements in order. */
export interface ShellScript {
  statements: ShellStatement[];
}

/** One statement: a command with its redirections (`ls -l > out`). */
export interface ShellStatement {
  command?: ShellCommand;
  redirects: ShellRedirect[];
  /** ends in `&`: runs in a subshell */
  background: boolean;
}

export type ShellCommand = ShellCall | ShellCompound;

/** A simple command: `A=1 git commit -m x`. `export`/`declare`/`local`/`let` also come out as calls. */
export interface ShellCall {
  kind: 'call';
  assignments: ShellAssignment[];
  words: ShellWord[];
}

/**
 * Anything else (`( )`, `{ }`, `&&`, `|`, `if`, `for`, `case`, `[[ ]]`, `(( ))`, functions, `time`,
 * `coproc`): the statements it contains and the substitutions in its own words (`for x in $(ls)`).
 */
export interface ShellCompound {
  kind: 'compound';
  /** the parser's node type, e.g. `Subshell`, `BinaryCmd`, `IfClause`, `TimeClause` */
  type: string;
  /** runs its statements in a subshell: `( )` and the sides of a pipe */
  subshell: boolean;
  statements: ShellStatement[];
  substitutions: ShellScript[];
  /** the source text, for `[[ ]]` (`TestClause`), `(( ))` (`ArithmCmd`) and `for (( ))` (`ForClause`), whose operands bash may evaluate as arithmetic; also for `for NAME in` (a variable it sets) and `case` */
  text?: string;
  /** a function's name (`FuncDecl`): its body (`statements`) runs where the function is called */
  name?: string;
}

export interface ShellAssignment {
  /** as written: `CI=true`, `X="a b"` */
  text: string;
  name: string;
  value?: ShellWord;
  /** every command and process substitution in it: value, array index, array elements */
  substitutions: ShellScript[];
}

/** One shell word, as written and as the program would receive it. */
export interface ShellWord {
  /** as written: `"$HOME"/x` */
  text: string;
  /** quotes removed and escapes resolved; expansions kept as written: `$HOME/x` */
  value: string;
  /** the program receives exactly `value`: no parameter, command or arithmetic expansion, no glob, no brace expansion, no `~user` */
  literal: boolean;
  /** starts with an unquoted `~` or `~/`, which the shell replaces with the home directory (`value` keeps the `~`) */
  tilde: boolean;
  /** the word is one process substitution, `<(…)` or `>(…)` (the program gets a /dev/fd path) */
  processSubstitution: boolean;
  /** command and process substitutions inside the word, in order */
  substitutions: ShellScript[];
}

export type RedirectOperator = (typeof REDIRECT_OPERATORS)[number];

export interface ShellRedirect {
  op: RedirectOperator;
  /** the file descriptor written before the operator: `2` in `2>err` */
  fd?: string;
  /** the file, descriptor (`>&2`) or here-document delimiter */
  target: ShellWord;
  /** the here-document body (`<<` and `<<-`) */
  heredoc?: ShellWord;
}

/** A command line the parser rejects (an unterminated quote, `ls &&`, `echo $(`), or a parser that failed. */
export class ShellSyntaxError extends Error {
  override name = 'ShellSyntaxError';
}

const REDIRECT_OPERATORS = ['>', '>>', '<', '<>', '<&', '>&', '>|', '<<', '<<-', '<<<', '&>', '&>>'] as const;
// One redirection of each operator above, in the same order. Parsing it at load time gives the
// parser's numeric operator codes without copying its token table here.
const REDIRECT_PROBE = ': >a >>a <a <>a <&0 >&1 >|a <<E <<-E <<<a &>a &>>a\nE\nE\n';
const PIPE_PROBE = 'a | b; a |& b';

/**
 * Parses `source` as bash. Throws {@link ShellSyntaxError} when it is not valid bash (`syntax error:`
 * and the parser's message, with line:column), when the parser fails in any other way, or when it
 * cannot be loaded.
 */
export function parseShell(source: string): ShellScript {
  if (!source.includes('\r')) return parseSource(source);
  // mvdan-sh reads a carriage return as a blank (for files with CRLF line ends); bash reads it as a
  // character of the word, so `ls\rrm x` runs a program named `ls\rrm`, shown on a terminal as `rm x`
  if (source.includes(CARRIAGE_RETURN_STAND_IN))
    throw new ShellSyntaxError('the command holds a carriage return and U+E00D');
  return restoreCarriageReturns(parseSource(source.replaceAll('\r', CARRIAGE_RETURN_STAND_IN)));
}

/** A private-use character the parser takes as part of a word, standing in for a carriage return. */
const CARRIAGE_RETURN_STAND_IN = '\uE00D';

/** The parsed line with every stand-in turned back into the carriage return it was. */
function restoreCarriageReturns<T>(value: T): T {
  if (typeof value === 'string') return value.replaceAll(CARRIAGE_RETURN_STAND_IN, '\r') as T;
  if (Array.isArray(value)) return value.map(restoreCarriageReturns) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, restoreCarriageReturns(v)])) as T;
  }
  return value;
}

function parseSource(source: string): ShellScript {
  let parser: LoadedParser;
  try {
    parser = loadParser();
  } catch (error) {
    throw new ShellSyntaxError(`the shell parser could not be loaded: ${goErrorMessage(error)}`);
  }
  let file: GoNode;
  try {
    file = withGoStacks(() => parser.syntax.NewParser().Parse(source, ''));
  } catch (error) {
    throw new ShellSyntaxError(`syntax error: ${goErrorMessage(error)}`);
  }
  try {
    return new Converter(parser, source).script(file.Stmts);
  } catch (error) {
    throw new ShellSyntaxError(`the shell parser failed: ${goErrorMessage(error)}`);
  }
}

// ---- the mvdan-sh object model (GopherJS objects: Go struct fields as properties, methods as functions)

/* eslint-disable @typescript-eslint/no-explicit-any -- the boundary with an untyped GopherJS build */
type GoNode = any;
interface GoSyntax {
  NewParser(): { Parse(source: string, name: string): GoNode };
  NodeType(node: GoNode): string;
  Walk(node: GoNode, visit: (node: GoNode) => boolean): void;
}
interface LoadedParser {
  syntax: GoSyntax;
  /** the node's type name, `CallExpr`: as syntax.NodeType, which is slow (about 0.1 ms a call, through fmt) */
  nodeType(node: GoNode): string;
  redirectOps: Map<number, RedirectOperator>;
  pipeOps: Set<number>;
}

let loaded: LoadedParser | undefined;

function loadParser(): LoadedParser {
  if (loaded) return loaded;
  // GopherJS's runtime sets Error.stackTraceLimit = Infinity and global.require for the whole process
  // when it loads; put both back so the rest of the program keeps Node's defaults.
  const stackTraceLimit = Error.stackTraceLimit;
  const globals = globalThis as { require?: unknown };
  const hadRequire = Object.prototype.hasOwnProperty.call(globals, 'require');
  const previousRequire = globals.require;
  let syntax: GoSyntax;
  try {
    syntax = (createRequire(import.meta.url)('mvdan-sh') as { syntax: GoSyntax }).syntax;
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
    if (hadRequire) globals.require = previousRequire;
    else delete globals.require;
  }
  const probe = withGoStacks(() => syntax.NewParser().Parse(REDIRECT_PROBE, ''));
  const redirects: GoNode[] = probe.Stmts[0].Redirs;
  const redirectOps = new Map(redirects.map((r: GoNode, i: number) => [Number(r.Op), REDIRECT_OPERATORS[i]!]));
  const pipes = withGoStacks(() => syntax.NewParser().Parse(PIPE_PROBE, ''));
  const pipeOps = new Set<number>(pipes.Stmts.map((s: GoNode) => Number(s.Cmd.Op)));
  const nodeType = (node: GoNode): string => {
    // GopherJS tags each object with its Go type: 'mvdan.cc/sh/v3/syntax.*CallExpr'
    const goType: unknown = node.$type;
    return typeof goType === 'string' ? goType.slice(goType.lastIndexOf('*') + 1) : syntax.NodeType(node);
  };
  loaded = { syntax, nodeType, redirectOps, pipeOps };
  return loaded;
}

/**
 * Runs parser code with unlimited stack traces, as GopherJS expects: its panic/recover emulation
 * measures the stack depth from `new Error().stack`.
 */
function withGoStacks<T>(run: () => T): T {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = Infinity;
  try {
    return run();
  } finally {
    Error.stackTraceLimit = limit;
  }
}

function goErrorMessage(error: unknown): string {
  if (error instanceof RangeError) return 'nested too deeply to parse'; // call stack exhausted
  const goError = error as { Error?: () => string; message?: string };
  if (typeof goError?.Error === 'function') return goError.Error();
  return goError?.message ?? String(error);
}

/** Converts the parser's tree into the plain shapes above. Offsets are UTF-8 byte offsets. */
class Converter {
  private readonly bytes: Buffer;

  constructor(
    private readonly parser: LoadedParser,
    source: string,
  ) {
    this.bytes = Buffer.from(source, 'utf8');
  }

  script(stmts: GoNode[] | null): ShellScript {
    return { statements: (stmts ?? []).map((s) => this.statement(s)) };
  }

  private statement(stmt: GoNode): ShellStatement {
    const redirects = (stmt.Redirs ?? []).map((r: GoNode) => this.redirect(r));
    const command = stmt.Cmd ? this.command(stmt.Cmd) : undefined;
    return { command, redirects, background: Boolean(stmt.Background) };
  }

  private redirect(redirect: GoNode): ShellRedirect {
    const op = this.parser.redirectOps.get(Number(redirect.Op));
    if (!op) throw new Error(`unknown redirection operator ${String(redirect.Op)}`);
    const heredocBody = op === '<<' || op === '<<-';
    const target = this.word(redirect.Word);
    return {
      op,
      fd: redirect.N ? String(redirect.N.Value) : undefined,
      target,
      heredoc: heredocBody && redirect.Hdoc ? this.word(redirect.Hdoc, 'heredoc') : undefined,
    };
  }

  private command(cmd: GoNode): ShellCommand {
    const type = this.parser.nodeType(cmd);
    if (type === 'CallExpr') {
      return {
        kind: 'call',
        assignments: (cmd.Assigns ?? []).map((a: GoNode) => this.assignment(a)),
        words: (cmd.Args ?? []).map((w: GoNode) => this.word(w)),
      };
    }
    if (type === 'DeclClause') {
      // export/declare/local/readonly/typeset: a builtin whose arguments are assignments
      const words = [this.literalWord(cmd.Variant), ...(cmd.Args ?? []).map((a: GoNode) => this.assignmentWord(a))];
      return { kind: 'call', assignments: [], words };
    }
    if (type === 'LetClause') {
      const words = [this.literalWord(cmd, 'let'), ...(cmd.Exprs ?? []).map((e: GoNode) => this.opaqueWord(e))];
      return { kind: 'call', assignments: [], words };
    }
    if (type === 'BinaryCmd') return this.binary(cmd);
    // `for PATH in …` sets a variable; `case ${x@P} in` expands a prompt: their text is looked at too
    const evaluated = type === 'TestClause' || type === 'ArithmCmd' || type === 'ForClause' || type === 'CaseClause';
    const name = type === 'FuncDecl' && cmd.Name ? { name: String(cmd.Name.Value) } : {};
    return {
      kind: 'compound',
      type,
      subshell: type === 'Subshell',
      ...this.children(cmd),
      ...(evaluated && { text: this.text(cmd) }),
      ...name,
    };
  }

  /**
   * `a && b || c` and `a | b | c`. A long chain parses as BinaryCmds nested as deep as it is long:
   * flatten it without recursion (a few hundred levels of recursion through the parser's objects
   * overflow the stack). The sides of a pipe run in subshells.
   */
  private binary(cmd: GoNode): ShellCompound {
    const { nodeType, pipeOps } = this.parser;
    const pipe = pipeOps.has(Number(cmd.Op));
    const statements: ShellStatement[] = [];
    const pending: GoNode[] = [cmd.Y, cmd.X];
    while (pending.length) {
      const stmt = pending.pop();
      const inner = stmt.Cmd;
      const plain = !stmt.Redirs?.length && !stmt.Negated && !stmt.Background;
      if (plain && inner && nodeType(inner) === 'BinaryCmd' && pipeOps.has(Number(inner.Op)) === pipe) {
        pending.push(inner.Y, inner.X);
      } else statements.push(this.statement(stmt));
    }
    return { kind: 'compound', type: 'BinaryCmd', subshell: pipe, statements, substitutions: [] };
  }

  /** The statements directly inside a compound command and the substitutions in its own words. */
  private children(node: GoNode): { statements: ShellStatement[]; substitutions: ShellScript[] } {
    const statements: ShellStatement[] = [];
    const substitutions: ShellScript[] = [];
    const { syntax, nodeType } = this.parser;
    syntax.Walk(node, (child: GoNode) => {
      if (!child) return true;
      const type = nodeType(child);
      if (type === 'Stmt') statements.push(this.statement(child));
      else if (type === 'CmdSubst' || type === 'ProcSubst') substitutions.push(this.script(child.Stmts));
      else return true;
      return false; // converted above, with everything under it
    });
    return { statements, substitutions };
  }

  /** Command and process substitutions anywhere under `node` (`${x:-$(cmd)}`, `$(( $(cmd) ))`). */
  private substitutionsIn(node: GoNode): ShellScript[] {
    // walking the parser's tree is slow (every node crosses from Go to JS): look at the text first
    if (!/\$\(|`|[<>]\(/.test(this.text(node))) return [];
    return this.children(node).substitutions;
  }

  private assignment(assign: GoNode): ShellAssignment {
    const value = assign.Value ? this.word(assign.Value) : undefined;
    const substitutions = this.substitutionsIn(assign);
    return { text: this.text(assign), name: String(assign.Name?.Value ?? ''), value, substitutions };
  }

  /** An argument of `export`/`declare`: `X=1`, `Y`, `-a`. */
  private assignmentWord(assign: GoNode): ShellWord {
    const substitutions = this.substitutionsIn(assign);
    if (assign.Naked && assign.Value) return this.word(assign.Value);
    if (assign.Naked && assign.Name && !assign.Index) return this.literalWord(assign.Name);
    const value = assign.Value && !assign.Index && !assign.Array ? this.word(assign.Value) : undefined;
    if (value && assign.Name) {
      const prefix = `${assign.Name.Value}${assign.Append ? '+=' : '='}`;
      return { ...value, text: this.text(assign), value: prefix + value.value, tilde: false };
    }
    return { ...this.opaqueWord(assign), substitutions };
  }

  private literalWord(node: GoNode, value: string = String(node.Value)): ShellWord {
    return { text: value, value, literal: true, tilde: false, processSubstitution: false, substitutions: [] };
  }

  /** A word we don't evaluate (arithmetic, arrays): kept as written. */
  private opaqueWord(node: GoNode): ShellWord {
    const text = this.text(node);
    const substitutions = this.substitutionsIn(node);
    return { text, value: text, literal: false, tilde: false, processSubstitution: false, substitutions };
  }

  private word(word: GoNode, context: 'word' | 'heredoc' = 'word'): ShellWord {
    const { nodeType } = this.parser;
    const parts: GoNode[] = word.Parts ?? [];
    let value = '';
    let literal = true;
    // the word's unquoted characters, with quoted or escaped ones replaced by a placeholder, to spot
    // globs and brace expansion the shell would perform
    let shape = '';
    let tilde = false;
    const substitutions: ShellScript[] = [];
    parts.forEach((part, index) => {
      const type = nodeType(part);
      if (type === 'Lit') {
        const raw = String(part.Value);
        if (context === 'heredoc') {
          value += unescapeInDoubleQuotes(raw, false);
          return;
        }
        if (index === 0 && raw.startsWith('~')) {
          const user = /^~([^/]*)/.exec(raw)![1]!;
          if (user === '') tilde = true;
          else literal = false; // ~user, ~+, ~-
        }
        const unquoted = unescapeUnquoted(raw);
        value += unquoted.value;
        shape += unquoted.shape;
      } else if (type === 'SglQuoted') {
        value += part.Dollar ? decodeAnsiC(String(part.Value)) : String(part.Value);
        shape += 'Q';
      } else if (type === 'DblQuoted') {
        for (const inner of part.Parts ?? []) {
          if (nodeType(inner) === 'Lit') value += unescapeInDoubleQuotes(String(inner.Value), true);
          else {
            literal = false;
            value += this.text(inner);
            substitutions.push(...this.partSubstitutions(inner));
          }
        }
        shape += 'Q';
      } else {
        literal = false;
        value += this.text(part);
        shape += 'Q';
        substitutions.push(...this.partSubstitutions(part));
      }
    });
    if (/[*?]|\[.*\]|\{[^{}]*(,|\.\.)[^{}]*\}/.test(shape)) literal = false;
    const processSubstitution = parts.length === 1 && nodeType(parts[0]) === 'ProcSubst';
    return { text: this.text(word), value, literal, tilde, processSubstitution, substitutions };
  }

  private partSubstitutions(part: GoNode): ShellScript[] {
    const type = this.parser.nodeType(part);
    if (type === 'CmdSubst' || type === 'ProcSubst') return [this.script(part.Stmts)];
    return this.substitutionsIn(part);
  }

  /** The source text of a node, as written. */
  private text(node: GoNode): string {
    return this.bytes.subarray(Number(node.Pos().Offset()), Number(node.End().Offset())).toString('utf8');
  }
}
/* eslint-enable @typescript-eslint/no-explicit-any */

/** Backslash removal outside quotes: `\x` is `x`, backslash-newline disappears. */
function unescapeUnquoted(raw: string): { value: string; shape: string } {
  let value = '';
  let shape = '';
  for (let i = 0; i < raw.length; i++) {
    const char = raw[i]!;
    if (char === '\\' && i + 1 < raw.length) {
      const next = raw[++i]!;
      if (next !== '\n') {
        value += next;
        shape += 'E';
      }
    } else {
      value += char;
      shape += char;
    }
  }
  return { value, shape };
}

/** Backslash removal inside double quotes (and unquoted here-documents, where `\"` stays as written). */
function unescapeInDoubleQuotes(raw: string, quote: boolean): string {
  const escapable = quote ? '$`"\\\n' : '$`\\\n';
  let value = '';
  for (let i = 0; i < raw.length; i++) {
    const char = raw[i]!;
    const next = raw[i + 1];
    if (char === '\\' && next !== undefined && escapable.includes(next)) {
      if (next !== '\n') value += next;
      i++;
    } else value += char;
  }
  return value;
}

const ANSI_C_ESCAPES: Record<string, string> = {
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

/** The value of a `$'…'` string (bash ANSI-C quoting): `$'\x63url'` is `curl`. */
function decodeAnsiC(raw: string): string {
  return raw.replace(
    /\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c.|.)/gs,
    (escape, body: string) => {
      const kind = body[0]!;
      if (kind === 'x' || kind === 'u' || kind === 'U') {
        const code = parseInt(body.slice(1), 16);
        return code <= 0x10ffff ? String.fromCodePoint(code) : '\ufffd';
      }
      if (/[0-7]/.test(kind)) return String.fromCharCode(parseInt(body, 8) & 0xff);
      if (kind === 'c') return String.fromCharCode(body.charCodeAt(1) & 0x1f);
      return Object.hasOwn(ANSI_C_ESCAPES, kind) ? ANSI_C_ESCAPES[kind]! : escape;
    },
  );
}
