/**
 * A declarative tool with a large argument (hundreds of KB): the value reaches the program on stdin
 * and in the file named by OPENCODE_ARG_<NAME>_FILE (not in the environment, where it made the start
 * fail with E2BIG); a program that exits without reading its input is not an error; a `{{param}}`
 * argument too long for any program gets a message saying what to do.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseToolFile } from '../../src/custom/declarative-spec.js';
import { createDeclarativeTool } from '../../src/custom/declarative-tool.js';
import type { Tool } from '../../src/tools/tool.js';
import { runTool, toolContext } from '../support/tool-context.js';

const BIG = 'x'.repeat(400_000);

function tool(dir: string, fields: Record<string, unknown>): Tool {
  const parsed = parseToolFile(
    JSON.stringify({
      name: 'summarise',
      description: 'Summarises a text.',
      parameters: {
        type: 'object',
        properties: { text: { type: 'string', description: 'the text' }, mode: { type: 'string', description: 'how' } },
        required: ['text'],
      },
      readOnly: true,
      ...fields,
    }),
    join(dir, 'summarise.json'),
    'json',
  );
  expect(parsed.errors).toEqual([]);
  return createDeclarativeTool(parsed.tools[0]!, { projectDir: dir });
}

describe('a declarative tool with a large argument', () => {
  it('a script gets it on stdin and in the file named by OPENCODE_ARG_<NAME>_FILE; small values stay variables', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-decl-big-'));
    writeFileSync(
      join(dir, 'summarise.mjs'),
      [
        "import { readFileSync } from 'node:fs';",
        "const input = JSON.parse(readFileSync(0, 'utf8'));",
        'const file = readFileSync(process.env.OPENCODE_ARG_TEXT_FILE, "utf8");',
        'console.log(`stdin ${input.text.length}, file ${file.length}, variable ${process.env.OPENCODE_ARG_TEXT ?? "unset"}, mode ${process.env.OPENCODE_ARG_MODE}`);',
      ].join('\n'),
    );
    const result = await runTool(
      tool(dir, { script: 'summarise.mjs' }),
      { text: BIG, mode: 'short' },
      toolContext(dir),
    );
    expect(result).toMatchObject({ output: 'stdin 400000, file 400000, variable unset, mode short', isError: false });
  });

  it('a program that exits without reading its input is not an error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-decl-big-'));
    writeFileSync(join(dir, 'summarise.mjs'), "console.log('did not read it');\n");
    const result = await runTool(tool(dir, { script: 'summarise.mjs' }), { text: BIG }, toolContext(dir));
    expect(result).toMatchObject({ output: 'did not read it', isError: false });
  });

  it('a {{placeholder}} too long for a program argument: the error says what to do', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'opencode-decl-big-'));
    const result = await runTool(tool(dir, { command: ['wc', '-c', '{{text}}'] }), { text: BIG }, toolContext(dir));
    expect(result).toMatchObject({
      output:
        'An argument of summarise is 391 KiB, more than a program argument can hold (128 KiB). Send a shorter value; the tool file can take large values from stdin (a "script" tool) or from the file named by $OPENCODE_ARG_<NAME>_FILE instead of a {{placeholder}}.',
      isError: true,
    });
  });
});
