/**
 * The tables behind opaque code hold their own examples: every wrapper row's example
 * is seen through to the command it runs, every interpreter, command-option and environment row's
 * example is opaque code, and every runner we don't follow is opaque.
 */
import { describe, expect, it } from 'vitest';
import { CODE_ENVIRONMENT, codeEnvironmentVariable } from '../../src/permission/code-env.js';
import { isHarmlessGitConfig } from '../../src/permission/git-code.js';
import { COMMAND_OPTIONS, INTERPRETERS, OPAQUE_RUNNERS } from '../../src/permission/opaque-code.js';
import { analyzeCommand, type ShellAnalysis } from '../../src/permission/shell-analysis.js';
import { WRAPPERS } from '../../src/permission/wrappers.js';

const options = { cwd: '/work/project', home: '/home/dev' };

/** The example's command: the first form that parses, without the note in parentheses or the other forms after `;` or `,`. */
function analyseExample(example: string): { command: string; analysis: ShellAnalysis } {
  const note = example.search(/ \((?![^']*'\))/);
  const withoutNote = note === -1 ? example : example.slice(0, note);
  for (const command of [withoutNote, ...withoutNote.split(/[;,] /)]) {
    const analysis = analyzeCommand(command, options);
    if (analysis.unanalysable === undefined) return { command, analysis };
  }
  throw new Error(`no form of the example parses: ${example}`);
}

describe('every wrapper row: its example is seen through to the command it runs', () => {
  it.each(Object.entries(WRAPPERS))('%s', (name, spec) => {
    const { analysis } = analyseExample(spec.example);
    const inner = analysis.commands.find((c) => c.wrappers.includes(name));
    expect(inner, `${spec.example}: ${JSON.stringify(analysis.commands)}`).toBeDefined();
    expect(inner!.name).not.toBe(name);
  });
});

describe('every interpreter row: its example is opaque code', () => {
  it.each(INTERPRETERS.map((row) => [row.names[0]!, row.example]))('%s: %s', (_, example) => {
    const { analysis } = analyseExample(example);
    expect(analysis.commands.some((c) => c.opaque !== undefined)).toBe(true);
    expect(analysis.readOnly).toBe(false);
  });

  it.each(INTERPRETERS.map((row) => row.names[0]!))('%s --version stays a plain command', (name) => {
    const [command] = analyzeCommand(`${name} --version`, options).commands;
    expect(command!.opaque).toBeUndefined();
  });
});

describe('every command-option row: its example is opaque code', () => {
  it.each(Object.entries(COMMAND_OPTIONS).filter(([name]) => name !== 'npm' && name !== 'pnpm'))('%s', (_, row) => {
    const { analysis } = analyseExample(row.example);
    expect(
      analysis.commands.some((c) => c.opaque !== undefined),
      row.example,
    ).toBe(true);
  });
});

describe('every runner we do not follow is opaque code', () => {
  it.each(Object.keys(OPAQUE_RUNNERS))('%s x', (name) => {
    const [command] = analyzeCommand(`${name} x`, options).commands;
    expect(command!.opaque).toMatch(/^runs code the check cannot see: /);
  });
});

describe('every code-running environment row: its example is opaque code', () => {
  it.each(CODE_ENVIRONMENT.map((row) => [row.name, row.example]))('%s: %s', (name, example) => {
    const { analysis } = analyseExample(example);
    expect(
      analysis.commands.some((c) => c.opaque !== undefined),
      example,
    ).toBe(true);
    const sample = name.replace('<n>', '0').replace('<name>', 'ls').replace('<key>', 'script_shell');
    expect(codeEnvironmentVariable(sample, './x')?.name).toBe(name);
  });

  it('a pager that only copies is harmless; any other is not', () => {
    expect(codeEnvironmentVariable('GIT_PAGER', 'cat')).toBeUndefined();
    expect(codeEnvironmentVariable('PAGER', '')).toBeUndefined();
    expect(codeEnvironmentVariable('GIT_PAGER', 'less')?.name).toBe('GIT_PAGER');
    expect(codeEnvironmentVariable('LANG', 'C')).toBeUndefined();
  });
});

describe('git -c keys', () => {
  it.each([
    ['color.ui', true],
    ['user.name', true],
    ['core.quotePath', true],
    ['core.pager', false],
    ['core.fsmonitor', false],
    ['core.sshCommand', false],
    ['core.hooksPath', false],
    ['alias.x', false],
    ['diff.external', false],
    ['diff.x.textconv', false],
    ['pager.log', false],
    ['safe.directory', false],
  ] as const)('%s harmless: %s', (key, harmless) => {
    expect(isHarmlessGitConfig(key)).toBe(harmless);
  });
});
