/**
 * The help a person reads first: `opencode help` is `--help`; the top-level help names the provider
 * variables, the config files and the README; each sub-command's help says which global options it
 * reads; `-f` without `-p` is refused with what it is for, instead of being ignored.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanEnv, runCli } from '../support/cli.js';

const project = () => mkdtempSync(join(tmpdir(), 'opencode-help-'));
const README = resolve(import.meta.dirname, '..', '..', 'README.md');

describe('opencode help', () => {
  it('`opencode help` prints what --help prints, exit 0', async () => {
    const env = cleanEnv();
    const [help, flag] = await Promise.all([
      runCli(['help'], { cwd: project(), env }),
      runCli(['--help'], { cwd: project(), env }),
    ]);
    expect(help.code).toBe(0);
    expect(help.stderr).toBe('');
    expect(help.stdout).toBe(flag.stdout);
    expect(help.stdout.startsWith('Usage: opencode [options] [command]\n')).toBe(true);
  });

  it('`opencode help stats` prints the help of stats', async () => {
    const env = cleanEnv();
    const [help, flag] = await Promise.all([
      runCli(['help', 'stats'], { cwd: project(), env }),
      runCli(['stats', '--help'], { cwd: project(), env }),
    ]);
    expect(help.code).toBe(0);
    expect(help.stdout).toBe(flag.stdout);
    expect(help.stdout.startsWith('Usage: opencode stats [options]\n')).toBe(true);
  });

  it('the top-level help names the provider variables, the config files and the README', async () => {
    const run = await runCli(['--help'], { cwd: project(), env: cleanEnv() });
    const after = run.stdout.slice(run.stdout.indexOf('\nEnvironment:\n'));
    expect(after).toBe(
      [
        '',
        'Environment:',
        '  ANTHROPIC_API_KEY, OPENAI_API_KEY, GROQ_API_KEY, OPENROUTER_API_KEY, XAI_API_KEY',
        '                                the key of a provider (one is enough)',
        '  ANTHROPIC_BASE_URL, OPENAI_BASE_URL',
        '                                the provider API at another address (a proxy)',
        '  LOCAL_ENDPOINT                an OpenAI-compatible server (Ollama, LM Studio,',
        '                                llama.cpp), e.g. http://localhost:11434',
        '  OPENCODE_PROFILE              the provider profile when --profile is not given',
        '',
        'Configuration (JSONC; the project file is merged over the first of the others):',
        '  <project>/.opencode.json, $HOME/.opencode.json,',
        '  $XDG_CONFIG_HOME/opencode/.opencode.json, ~/.config/opencode/.opencode.json',
        '',
        `More: opencode help <command>; the README: ${README}`,
        '',
      ].join('\n'),
    );
  });

  it.each([
    [['stats'], 'Global options it reads: -c, --cwd; --trust (see opencode --help).'],
    [['sessions', 'undo'], 'Global options it reads: -c, --cwd (see opencode --help).'],
    [['mcp', 'list'], 'Global options it reads: -c, --cwd; --trust (see opencode --help).'],
    [['profiles'], 'Global options it reads: -c, --cwd; --profile (see opencode --help).'],
    [['schema'], 'Global options: none apply.'],
  ])('opencode %j --help ends with the global options it reads', async (command, line) => {
    const run = await runCli([...command, '--help'], { cwd: project(), env: cleanEnv() });
    expect(run.code).toBe(0);
    expect(run.stdout.endsWith(`\n\n${line}\n`)).toBe(true);
  });

  it('every command that runs says which global options it reads', async () => {
    const env = cleanEnv();
    /** The command names of a help's Commands section (help itself left out). */
    const commandsOf = (help: string) =>
      help
        .slice(help.indexOf('\nCommands:\n'))
        .split('\n')
        .map((line) => /^ {2}([a-z][a-z-]*)\b/.exec(line)?.[1])
        .filter((name): name is string => name !== undefined && name !== 'help');
    const top = commandsOf((await runCli(['--help'], { cwd: project(), env })).stdout);
    expect(top).toEqual(expect.arrayContaining(['schema', 'stats', 'sessions', 'acp']));
    const missing: string[] = [];
    for (const name of top) {
      const help = (await runCli([name, '--help'], { cwd: project(), env })).stdout;
      const subs = help.includes('\nCommands:\n') ? commandsOf(help).map((sub) => [name, sub]) : [[name]];
      for (const command of subs) {
        const text =
          subs.length === 1 && command.length === 1
            ? help
            : (await runCli([...command, '--help'], { cwd: project(), env })).stdout;
        if (!/\n\nGlobal options(?: it reads: .+ \(see opencode --help\)|: none apply)\.\n$/.test(text))
          missing.push(command.join(' '));
      }
    }
    expect(missing).toEqual([]);
  }, 120_000);

  it.each([[['-f', 'json']], [['stats', '-f', 'json']], [['--output-format=json', 'sessions', 'list']]])(
    '%j: -f without -p says it needs -p, exit 2',
    async (args) => {
      const run = await runCli(args, { cwd: project(), env: cleanEnv() });
      expect(run.stderr).toBe(
        'opencode: -f/--output-format needs -p: it sets how one prompt\'s answer is printed, e.g. opencode -p "your request" -f json\n',
      );
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
    },
  );
});
