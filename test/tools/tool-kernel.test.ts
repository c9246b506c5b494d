import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PermissionDeniedError } from '../../src/permission/errors.js';
import { prepareToolInput } from '../../src/tools/coerce.js';
import { defineTool, ToolError, type ToolContext } from '../../src/tools/tool.js';
import { truncateOutput } from '../../src/tools/truncate.js';
import { ToolRegistry } from '../../src/tools/registry.js';

const ctx = {} as ToolContext;

const echo = defineTool({
  name: 'echo',
  description: 'Echoes.',
  parameters: z.object({ text: z.string(), offset: z.number().optional() }),
  readOnly: true,
  async run(input) {
    if (input.text === 'boom') throw new Error('exploded');
    if (input.text === 'tool-error') throw new ToolError('bad thing', { n: 1 });
    if (input.text === 'deny') throw new PermissionDeniedError();
    return `echo: ${input.text}`;
  },
});

describe('tool kernel', () => {
  it('runs a valid call and returns its output', async () => {
    expect(await echo.run({ text: 'hi' }, ctx)).toEqual({ output: 'echo: hi', isError: false });
  });

  it('input that is not JSON is answered before the tool runs, with a message the model can act on', () => {
    const r = prepareToolInput(echo.name, echo.inputSchema, '{"text": "hi"');
    expect(r.ok).toBe(false);
    expect(r.ok ? '' : r.message).toMatch(
      /^The input of echo is not valid JSON \(.+\)\. Send the parameters as a JSON object\.$/,
    );
  });

  it('names the parameter, the expected type and the value sent when the schema fails', async () => {
    const r = await echo.run({ text: 'hi', offset: 'x' }, ctx);
    expect(r).toEqual({
      output: 'Invalid input for echo: offset must be a number; you sent "x"',
      isError: true,
      outcome: 'validation',
    });
  });

  it('says which required parameter is missing', async () => {
    const r = await echo.run({}, ctx);
    expect(r).toEqual({ output: 'Invalid input for echo: text is required', isError: true, outcome: 'validation' });
  });

  it('turns a thrown error into an error result', async () => {
    expect(await echo.run({ text: 'boom' }, ctx)).toEqual({ output: 'Error: exploded', isError: true });
    expect(await echo.run({ text: 'tool-error' }, ctx)).toEqual({
      output: 'bad thing',
      isError: true,
      metadata: { n: 1 },
    });
  });

  it('marks a permission denial so the loop can stop', async () => {
    expect(await echo.run({ text: 'deny' }, ctx)).toEqual({
      output: 'Permission denied',
      isError: true,
      permissionDenied: true,
    });
  });

  it('publishes a JSON schema with properties and required', () => {
    expect(echo.inputSchema).toEqual({
      type: 'object',
      properties: { text: { type: 'string' }, offset: { type: 'number' } },
      required: ['text'],
    });
  });

  it('cuts long output keeping head and tail around a marker', () => {
    const text = Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n');
    const cut = truncateOutput(text, 'marker', { maxOutputChars: 40 }).text;
    expect(cut.startsWith(text.slice(0, 20))).toBe(true);
    expect(cut.endsWith(text.slice(-20))).toBe(true);
    expect(cut).toContain('lines truncated');
    expect(truncateOutput('short', 'marker', { maxOutputChars: 40 })).toEqual({ text: 'short', truncated: false });
  });
});

describe('tool registry', () => {
  const tool = (name: string, description: string) => ({ ...echo, name, description });

  it('lets project tools win over user, MCP and built-in tools of the same name', () => {
    const r = new ToolRegistry();
    r.register(tool('view', 'builtin'), 'builtin');
    r.register(tool('view', 'project'), 'project');
    r.register(tool('view', 'user'), 'user');
    expect(r.get('view')!.description).toBe('project');
    r.unregister('view', 'project');
    expect(r.get('view')!.description).toBe('user');
  });

  it('lists tools sorted by name and builds subsets', () => {
    const r = new ToolRegistry();
    for (const n of ['ls', 'bash', 'view']) r.register(tool(n, n));
    expect(r.list().map((t) => t.name)).toEqual(['bash', 'ls', 'view']);
    expect(
      r
        .subset(['view', 'ls', 'nope'])
        .schemas()
        .map((s) => s.name),
    ).toEqual(['ls', 'view']);
  });
});

describe('tool input schema', () => {
  it('leaves out the ±MAX_SAFE_INTEGER bounds zod adds to integers', () => {
    const t = defineTool({
      name: 't',
      description: 'd',
      parameters: z.object({ n: z.number().int(), m: z.number().int().min(1) }),
      async run() {
        return '';
      },
    });
    expect(t.inputSchema).toEqual({
      type: 'object',
      properties: { n: { type: 'integer' }, m: { type: 'integer', minimum: 1 } },
      required: ['n', 'm'],
    });
  });
});
