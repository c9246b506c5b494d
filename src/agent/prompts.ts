/**
 * System prompts for the agent kinds, in our own words, with the content the original's prompts
 * carry, plus the environment block and the project's context files.
 *
 * Every word here is sent on every request: keep it short (the budget for prompt + tool schemas
 * is 24,000 characters).
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { secretPlaceOf } from '../tools/secret-read.js';

/** The four agents of the original: `coder` (all tools), `task` (read-only sub-agent), `title`, `summarizer`. */
export type AgentKind = 'coder' | 'task' | 'title' | 'summarizer';

const CODER = `You are OpenCode, a coding agent working in the user's terminal, inside their project. You help with software engineering: fixing bugs, adding features, refactoring, explaining code, running builds and tests.

# Tone
- Be concise and direct; your text is shown in a terminal. Answer in fewer than 4 lines unless the user asks for detail or the task needs it. No preamble or recap ("Here is what I did…") unless asked.
- The user does not see tool output: tell them what matters from it.
- Don't guess URLs. Don't use bash or code comments to talk to the user.

# Doing the work
1. Understand first: search the codebase (glob, grep, ls, view) — batch independent searches in one response.
2. Follow the project's conventions. Look at neighbouring files, imports and the package manifest before using a library; never assume one is available.
3. Make the change with edit or write; keep it minimal and in the surrounding style. Add comments only when the user asks or the code is truly non-obvious.
4. Verify: run the project's tests, lint and typecheck commands (find them in the README, package manifest or the context files below). If you can't find them, ask the user and suggest recording them in OpenCode.md.
5. Never commit unless the user asks. Never expose or log secrets.

# Tools
- View a file before editing it; edits fail on files you haven't read or that changed since.
- Prefer the dedicated tools over bash for finding and reading files (no \`find\`, \`grep\`, \`cat\`, \`ls\` through bash).
- When several tool calls are independent, make them in the same response.
- Refer to code as \`path:line\` so the user can jump to it.

# Memory
OpenCode.md in the project root is loaded into this prompt. When you learn the build/test/lint commands or the user's style preferences, offer to record them there.`;

const TASK = `You are a search agent for OpenCode, working in the user's project with read-only tools. Do the search or reading the prompt asks for and answer concisely with what was found. Give absolute file paths and relevant line numbers; quote only the code that matters. You cannot modify files or run commands.`;

const TITLE = `Write a title for the conversation that starts with the user's message below.
- One line, at most 50 characters, in the user's language.
- Summarise the request; no quotes, no colons, no trailing punctuation.
Reply with the title only.`;

const SUMMARIZER = `You summarise a coding session so it can continue in a fresh context. Cover: what was asked, what was done, the current state of the work, the files involved and why, decisions made, and the next steps. Be detailed about facts the work depends on and brief about everything else.`;

/**
 * Entries of the project tree put in the prompt (the original used the ls limit, 1000: about 20,000
 * characters on a sizeable project). 200 entries is about 4,000 characters, which keeps the first
 * request within the 24,000-character budget; the model lists deeper with ls and glob.
 */
export const PROJECT_TREE_MAX_ENTRIES = 200;

/** What the environment block and context files are built from. */
export interface PromptEnvironment {
  /** absolute project directory */
  cwd: string;
  /** the project tree (the ls tool's output for the cwd) */
  projectTree: string;
  /** `contextPaths` from config, relative to the cwd; a trailing `/` means every file under that folder */
  contextPaths: readonly string[];
  /** defaults to today */
  now?: Date;
  platform?: string;
}

/**
 * Heads the project's rules in the summarizer's prompt: the summary replaces the conversation, so
 * what the rules require of the rest of the work must survive in it.
 */
const SUMMARIZER_RULES_INTRO =
  'The coding agent must follow the project rules below. Keep in the summary whatever they require of the work still to do (conventions, commands to run, things not to do, files not to touch), and note where the work so far departed from them.';

/**
 * The system prompt of `kind`. Coder and task get the environment block and the context files,
 * re-read on every call so edits to them take effect at the next run; the summarizer gets the same
 * context files as the coder (its project rules), so a summary keeps what they require.
 */
export function systemPrompt(kind: AgentKind, env?: PromptEnvironment): string {
  if (kind === 'title') return TITLE;
  if (kind === 'summarizer')
    return env ? `${SUMMARIZER}${contextSection(env.cwd, env.contextPaths, SUMMARIZER_RULES_INTRO)}` : SUMMARIZER;
  const base = kind === 'coder' ? CODER : TASK;
  if (!env) return base;
  const context = kind === 'coder' ? contextSection(env.cwd, env.contextPaths) : '';
  return `${base}\n\n${environmentBlock(env)}${context}`;
}

/** The `<env>` block: cwd, git repo or not, platform, date, and the project tree. */
export function environmentBlock(env: PromptEnvironment): string {
  const now = env.now ?? new Date();
  const date = `${now.getMonth() + 1}/${now.getDate()}/${now.getFullYear()}`;
  const isGit = existsSync(join(env.cwd, '.git'));
  return [
    'Here is useful information about the environment you are running in:',
    '<env>',
    `Working directory: ${env.cwd}`,
    `Is directory a git repo: ${isGit ? 'yes' : 'no'}`,
    `Platform: ${env.platform ?? process.platform}`,
    `Today's date: ${date}`,
    '</env>',
    '<project>',
    env.projectTree.trimEnd(),
    '</project>',
  ].join('\n');
}

/** Maximum characters taken from one context file. */
const MAX_CONTEXT_FILE_CHARS = 20_000;
/** Maximum characters of all context files together. */
const MAX_CONTEXT_TOTAL_CHARS = 60_000;

/** The line under `# Project-Specific Context` in the coder's prompt (the original's). */
const CODER_CONTEXT_INTRO = 'Make sure to follow the instructions in the context below.';

/**
 * `# Project-Specific Context` followed by each context file as `# From:<path>\n<content>`,
 * in the configured order (then AGENTS.md), each file once (compared case-insensitively, as the
 * original). Missing files are skipped. Returns '' when there are none. `intro` is the line under
 * the heading.
 */
export function contextSection(cwd: string, contextPaths: readonly string[], intro = CODER_CONTEXT_INTRO): string {
  const files = contextFiles(cwd, [...contextPaths, 'AGENTS.md']);
  if (files.length === 0) return '';
  const parts: string[] = [];
  let total = 0;
  for (const { path, content, secret } of files) {
    if (secret) {
      parts.push(`(context file left out: ${path} holds ${secret}, which is never sent without the person's word)`);
      continue;
    }
    // a folder in contextPaths can hold anything: binary files are skipped, the whole is bounded
    if (content.includes('\0')) continue;
    if (total >= MAX_CONTEXT_TOTAL_CHARS) {
      parts.push(`(further context files left out: the context is limited to ${MAX_CONTEXT_TOTAL_CHARS} characters)`);
      break;
    }
    const text = content.slice(0, Math.min(MAX_CONTEXT_FILE_CHARS, MAX_CONTEXT_TOTAL_CHARS - total));
    total += text.length;
    parts.push(`# From:${path}\n${text}`);
  }
  return `\n\n# Project-Specific Context\n${intro}\n${parts.join('\n\n')}`;
}

function contextFiles(cwd: string, paths: readonly string[]): { path: string; content: string; secret?: string }[] {
  const seen = new Set<string>();
  const out: { path: string; content: string; secret?: string }[] = [];
  const add = (abs: string) => {
    // only a file that exists claims its name: a missing opencode.md must not hide OpenCode.md
    const key = abs.toLowerCase();
    if (seen.has(key)) return;
    try {
      const st = statSync(abs);
      if (!st.isFile()) return;
      // a project's contextPaths (or a link it ships) naming ~/.ssh/id_rsa would send the key with every
      // request, where the file tools ask first: a secret place is left out, by its real path too
      const secret = secretPlaceOf(abs);
      if (secret) {
        out.push({ path: abs, content: '', secret: secret.reason });
        seen.add(key);
        return;
      }
      out.push({ path: abs, content: readFileSync(abs, 'utf8') });
      seen.add(key);
    } catch {
      // a missing or unreadable context file is simply not part of the context
    }
  };
  for (const p of paths) {
    const abs = resolve(cwd, p);
    if (p.endsWith('/')) {
      for (const file of walkFiles(abs)) add(file);
    } else {
      add(abs);
    }
  }
  return out;
}

function walkFiles(dir: string): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((e) => (e.isDirectory() ? walkFiles(join(dir, e.name)) : e.isFile() ? [join(dir, e.name)] : []));
}

/** The reply shown when the step cap ends a run. */
export function stepLimitMessage(maxSteps: number): string {
  return `Stopped after ${maxSteps} steps without finishing (agents.coder.maxSteps is ${maxSteps}). Send a message to continue, or raise the limit in .opencode.json.`;
}
