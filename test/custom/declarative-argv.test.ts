/**
 * A declarative tool's `command`: every `{{param}}` becomes part of exactly one argument, never shell
 * text, so a hostile value can't break out. Checked on the pure substitution and on a real
 * process that prints each argument it got.
 */
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatArgv, substituteArgv } from '../../src/custom/argv.js';
import { parseToolFile } from '../../src/custom/declarative-spec.js';
import { createDeclarativeTool } from '../../src/custom/declarative-tool.js';
import { runTool, toolContext } from '../support/tool-context.js';

const HOSTILE = [
  '; rm -rf ~',
  '$(touch pwned)',
  '`touch pwned`',
  `it's "quoted"`,
  'line one\nline two',
  '&& touch pwned || true',
  '> pwned',
  '*',
];

describe('substituteArgv', () => {
  it.each([
    // [command, args, argv]
    [['grep', '-n', '{{pattern}}', 'log.txt'], { pattern: '$(id)' }, ['grep', '-n', '$(id)', 'log.txt']],
    [['curl', '--max-time={{seconds}}'], { seconds: 5 }, ['curl', '--max-time=5']],
    [['tool', '--limit={{limit}}', 'x'], {}, ['tool', 'x']],
    [['tool', '{{flag}}'], { flag: true }, ['tool', 'true']],
    [['tool', '{{list}}'], { list: ['a b', 'c'] }, ['tool', '["a b","c"]']],
    [['tool', '{{ a }}-{{b}}'], { a: 'x', b: 'y z' }, ['tool', 'x-y z']],
    [['tool', '{{a}}-{{b}}'], { a: 'x' }, ['tool', 'x-']],
  ])('%j with %j → %j', (command, args, argv) => {
    expect(substituteArgv(command, args)).toEqual(argv);
  });

  it('shows the argv as a line a person can read: quoted where needed', () => {
    expect(formatArgv(['grep', '-n', "it's; rm -rf ~", 'a.txt'])).toBe(`grep -n 'it'\\''s; rm -rf ~' a.txt`);
  });
});

describe('a hostile value run through a real program', () => {
  it.each(HOSTILE)('%j arrives as one argument and runs nothing', async (value) => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-argv-'));
    const file = join(dir, '.opencode', 'tools', 'echo.json');
    const parsed = parseToolFile(
      JSON.stringify({
        name: 'show_args',
        description: 'Prints its arguments as JSON.',
        parameters: {
          type: 'object',
          properties: { text: { type: 'string', description: 'anything' } },
          required: ['text'],
        },
        command: [
          process.execPath,
          '-e',
          'process.stdout.write(JSON.stringify(process.argv.slice(1)))',
          'before',
          '{{text}}',
          'after',
        ],
        readOnly: true,
      }),
      file,
      'json',
    );
    expect(parsed.errors).toEqual([]);
    const tool = createDeclarativeTool(parsed.tools[0]!, { projectDir: dir });
    const result = await runTool(tool, { text: value }, toolContext(dir));
    expect(result.isError).toBe(false);
    expect(JSON.parse(result.output)).toEqual(['before', value, 'after']);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a script gets the values as JSON on stdin and as OPENCODE_ARG_ variables, untouched', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-argv-'));
    const script = join(dir, 'show.mjs');
    writeFileSync(
      script,
      "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>process.stdout.write(JSON.stringify({stdin:JSON.parse(s),env:process.env.OPENCODE_ARG_USER_NAME})));",
    );
    const parsed = parseToolFile(
      JSON.stringify({
        name: 'show',
        description: 'Shows.',
        parameters: { type: 'object', properties: { 'user-name': { type: 'string', description: 'who' } } },
        script: './show.mjs',
        readOnly: true,
      }),
      join(dir, 'show.json'),
      'json',
    );
    const tool = createDeclarativeTool(parsed.tools[0]!, { projectDir: dir });
    const value = '\'; rm -rf ~ $(id)\n"';
    const result = await runTool(tool, { 'user-name': value }, toolContext(dir));
    expect(JSON.parse(result.output)).toEqual({ stdin: { 'user-name': value }, env: value });
  });
});
