/**
 * Arguments the model gets wrong: the coercion table, nested values, arrays, unions,
 * and the exact messages for what cannot be coerced.
 */
import { describe, expect, it } from 'vitest';
import { coerceArguments, prepareToolInput, type JsonSchema } from '../../src/tools/coerce.js';

const obj = (properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema => ({
  type: 'object',
  properties,
  required,
});
const one = (schema: JsonSchema): JsonSchema => obj({ x: schema });

interface Row {
  name: string;
  schema: JsonSchema;
  input: unknown;
  value?: unknown;
  coerced?: string[];
  problems?: string[];
}

const rows: Row[] = [
  // already right: nothing changes
  { name: 'an integer stays', schema: one({ type: 'integer' }), input: { x: 5 }, value: { x: 5 }, coerced: [] },
  { name: 'a string stays', schema: one({ type: 'string' }), input: { x: '5' }, value: { x: '5' }, coerced: [] },
  {
    name: 'unknown keys pass through',
    schema: one({ type: 'string' }),
    input: { x: 'a', y: 1 },
    value: { x: 'a', y: 1 },
    coerced: [],
  },
  // integer
  { name: '"42" → 42', schema: one({ type: 'integer' }), input: { x: '42' }, value: { x: 42 }, coerced: ['x'] },
  { name: '" -7 " → -7', schema: one({ type: 'integer' }), input: { x: ' -7 ' }, value: { x: -7 }, coerced: ['x'] },
  {
    name: '"5.0" → 5 for an integer',
    schema: one({ type: 'integer' }),
    input: { x: '5.0' },
    value: { x: 5 },
    coerced: ['x'],
  },
  {
    name: '"5.5" is no integer',
    schema: one({ type: 'integer' }),
    input: { x: '5.5' },
    problems: ['x must be an integer; you sent "5.5"'],
  },
  {
    name: '5.5 is no integer',
    schema: one({ type: 'integer' }),
    input: { x: 5.5 },
    problems: ['x must be an integer; you sent 5.5'],
  },
  {
    name: '"five" is no integer',
    schema: one({ type: 'integer' }),
    input: { x: 'five' },
    problems: ['x must be an integer; you sent "five"'],
  },
  {
    name: '"" is no integer',
    schema: one({ type: 'integer' }),
    input: { x: '' },
    problems: ['x must be an integer; you sent ""'],
  },
  {
    name: '"0x10" is no integer',
    schema: one({ type: 'integer' }),
    input: { x: '0x10' },
    problems: ['x must be an integer; you sent "0x10"'],
  },
  // number
  { name: '"2.5" → 2.5', schema: one({ type: 'number' }), input: { x: '2.5' }, value: { x: 2.5 }, coerced: ['x'] },
  { name: '"1e3" → 1000', schema: one({ type: 'number' }), input: { x: '1e3' }, value: { x: 1000 }, coerced: ['x'] },
  {
    name: '"NaN" is no number',
    schema: one({ type: 'number' }),
    input: { x: 'NaN' },
    problems: ['x must be a number; you sent "NaN"'],
  },
  {
    name: 'true is no number',
    schema: one({ type: 'number' }),
    input: { x: true },
    problems: ['x must be a number; you sent true'],
  },
  // boolean
  { name: '"true" → true', schema: one({ type: 'boolean' }), input: { x: 'true' }, value: { x: true }, coerced: ['x'] },
  {
    name: '"False" → false',
    schema: one({ type: 'boolean' }),
    input: { x: 'False' },
    value: { x: false },
    coerced: ['x'],
  },
  {
    name: '"yes" is no boolean',
    schema: one({ type: 'boolean' }),
    input: { x: 'yes' },
    problems: ['x must be a boolean (true or false); you sent "yes"'],
  },
  {
    name: '1 is no boolean',
    schema: one({ type: 'boolean' }),
    input: { x: 1 },
    problems: ['x must be a boolean (true or false); you sent 1'],
  },
  // string
  { name: '404 → "404"', schema: one({ type: 'string' }), input: { x: 404 }, value: { x: '404' }, coerced: ['x'] },
  { name: 'true → "true"', schema: one({ type: 'string' }), input: { x: true }, value: { x: 'true' }, coerced: ['x'] },
  {
    name: 'an object is no string',
    schema: one({ type: 'string' }),
    input: { x: { a: 1 } },
    problems: ['x must be a string; you sent {"a":1}'],
  },
  // array
  {
    name: 'a JSON text of an array',
    schema: one({ type: 'array', items: { type: 'integer' } }),
    input: { x: '[1,2]' },
    value: { x: [1, 2] },
    coerced: ['x'],
  },
  {
    name: 'one value where an array is expected',
    schema: one({ type: 'array', items: { type: 'string' } }),
    input: { x: '*.log' },
    value: { x: ['*.log'] },
    coerced: ['x'],
  },
  {
    name: 'items coerced too',
    schema: one({ type: 'array', items: { type: 'integer' } }),
    input: { x: ['1', 2, '3'] },
    value: { x: [1, 2, 3] },
    coerced: ['x.0', 'x.2'],
  },
  {
    name: 'one value wrapped, then coerced',
    schema: one({ type: 'array', items: { type: 'integer' } }),
    input: { x: '7' },
    value: { x: [7] },
    coerced: ['x', 'x.0'],
  },
  {
    name: 'a bad item is named by index',
    schema: one({ type: 'array', items: { type: 'integer' } }),
    input: { x: [1, 'two'] },
    problems: ['x.1 must be an integer; you sent "two"'],
  },
  {
    name: 'null for an optional array is dropped',
    schema: one({ type: 'array', items: { type: 'string' } }),
    input: { x: null },
    value: {},
    coerced: ['x'],
  },
  // object
  {
    name: 'a JSON text of an object',
    schema: one(obj({ a: { type: 'integer' } })),
    input: { x: '{"a":"1"}' },
    value: { x: { a: 1 } },
    coerced: ['x', 'x.a'],
  },
  {
    name: 'a string that is no object',
    schema: one(obj({ a: { type: 'integer' } })),
    input: { x: 'a=1' },
    problems: ['x must be an object; you sent "a=1"'],
  },
  // nested
  {
    name: 'nested properties and arrays of objects',
    schema: obj(
      { edits: { type: 'array', items: obj({ line: { type: 'integer' }, all: { type: 'boolean' } }, ['line']) } },
      ['edits'],
    ),
    input: { edits: [{ line: '3', all: 'true' }, { line: 4 }] },
    value: { edits: [{ line: 3, all: true }, { line: 4 }] },
    coerced: ['edits.0.line', 'edits.0.all'],
  },
  {
    name: 'nested required and bad values are all named',
    schema: obj({ edits: { type: 'array', items: obj({ line: { type: 'integer' } }, ['line']) } }, ['edits']),
    input: { edits: [{}, { line: 'x' }] },
    problems: ['edits.0.line is required', 'edits.1.line must be an integer; you sent "x"'],
  },
  // required and null
  {
    name: 'a missing required parameter',
    schema: obj({ path: { type: 'string' } }, ['path']),
    input: {},
    problems: ['path is required'],
  },
  {
    name: 'null for an optional parameter means not given',
    schema: obj({ offset: { type: 'integer' } }),
    input: { offset: null },
    value: {},
    coerced: ['offset'],
  },
  {
    name: 'null for a required parameter',
    schema: obj({ path: { type: 'string' } }, ['path']),
    input: { path: null },
    problems: ['path must be a string; you sent null'],
  },
  {
    name: 'null kept where null is allowed',
    schema: obj({ v: { type: ['string', 'null'] } }),
    input: { v: null },
    value: { v: null },
    coerced: [],
  },
  // enum
  {
    name: 'an enum member by its text',
    schema: one({ enum: [1, 2] }),
    input: { x: '2' },
    value: { x: 2 },
    coerced: ['x'],
  },
  {
    name: 'an enum member in another case',
    schema: one({ type: 'string', enum: ['text', 'markdown'] }),
    input: { x: 'Markdown' },
    value: { x: 'markdown' },
    coerced: ['x'],
  },
  {
    name: 'not an enum member',
    schema: one({ type: 'string', enum: ['text', 'markdown'] }),
    input: { x: 'pdf' },
    problems: ['x must be one of "text", "markdown"; you sent "pdf"'],
  },
  // several types and unions
  {
    name: 'a list of types: the first that converts',
    schema: one({ type: ['integer', 'boolean'] }),
    input: { x: 'true' },
    value: { x: true },
    coerced: ['x'],
  },
  {
    name: 'anyOf: an exact branch wins',
    schema: one({ anyOf: [{ type: 'integer' }, { type: 'string' }] }),
    input: { x: '5' },
    value: { x: '5' },
    coerced: [],
  },
  {
    name: 'anyOf: else the first branch that converts',
    schema: one({ anyOf: [{ type: 'integer' }, { type: 'array', items: { type: 'integer' } }] }),
    input: { x: '[1]' },
    value: { x: [1] },
    coerced: ['x'],
  },
  {
    name: 'anyOf: no branch fits',
    schema: one({ anyOf: [{ type: 'integer' }, { enum: ['all'] }] }),
    input: { x: 'some' },
    problems: ['x must be an integer or one of "all"; you sent "some"'],
  },
  // schemas we don't read
  {
    name: 'a property without a type takes anything',
    schema: one({ description: 'free' }),
    input: { x: [1, { a: 2 }] },
    value: { x: [1, { a: 2 }] },
    coerced: [],
  },
  {
    name: 'an unknown type name takes anything',
    schema: one({ type: 'date' }),
    input: { x: 'today' },
    value: { x: 'today' },
    coerced: [],
  },
  // the whole input
  {
    name: 'a JSON text of the whole object',
    schema: obj({ a: { type: 'integer' } }),
    input: '{"a":"1"}',
    value: { a: 1 },
    coerced: ['(input)', 'a'],
  },
  {
    name: 'an array is no input',
    schema: obj({ a: { type: 'integer' } }),
    input: [1, 2],
    problems: ['(input) must be an object; you sent [1,2]'],
  },
];

describe('coerceArguments', () => {
  it.each(rows)('$name', (row) => {
    const result = coerceArguments(row.schema, row.input);
    expect(result.problems).toEqual(row.problems ?? []);
    if (row.value !== undefined) expect(result.value).toEqual(row.value);
    if (row.coerced !== undefined) expect(result.coercions.map((c) => c.path)).toEqual(row.coerced);
  });

  it('records what was sent and what it became', () => {
    expect(coerceArguments(one({ type: 'integer' }), { x: '42' }).coercions).toEqual([
      { path: 'x', from: '42', to: 42 },
    ]);
  });

  it('never mutates the input', () => {
    const input = { x: ['1'] };
    coerceArguments(one({ type: 'array', items: { type: 'integer' } }), input);
    expect(input).toEqual({ x: ['1'] });
  });

  it('cuts a long value in the message', () => {
    const long = 'y'.repeat(300);
    expect(coerceArguments(one({ type: 'integer' }), { x: long }).problems).toEqual([
      `x must be an integer; you sent "${'y'.repeat(96)}...`,
    ]);
  });
});

describe('prepareToolInput', () => {
  const view = obj({ file_path: { type: 'string' }, offset: { type: 'integer' }, limit: { type: 'integer' } }, [
    'file_path',
  ]);

  it('keeps the raw text when nothing changed', () => {
    const raw = '{ "file_path": "a.txt" }';
    expect(prepareToolInput('view', view, raw)).toEqual({
      ok: true,
      value: { file_path: 'a.txt' },
      input: raw,
      coercions: [],
    });
  });

  it('hands the tool the coerced value, with its JSON text', () => {
    expect(prepareToolInput('view', view, '{"file_path":"a.txt","limit":"5"}')).toEqual({
      ok: true,
      value: { file_path: 'a.txt', limit: 5 },
      input: '{"file_path":"a.txt","limit":5}',
      coercions: [{ path: 'limit', from: '5', to: 5 }],
    });
  });

  it('treats an empty input as {}', () => {
    expect(prepareToolInput('ls', obj({ path: { type: 'string' } }), '  ')).toEqual({
      ok: true,
      value: {},
      input: '  ',
      coercions: [],
    });
  });

  it('names every problem in one error the model can act on', () => {
    expect(prepareToolInput('view', view, '{"limit":"five","offset":true}')).toEqual({
      ok: false,
      message:
        'Invalid input for view: limit must be an integer; you sent "five"; offset must be an integer; you sent true; file_path is required',
    });
  });

  it('says when the input is not JSON at all', () => {
    expect(prepareToolInput('view', view, '{"file_path": ')).toEqual({
      ok: false,
      message:
        'The input of view is not valid JSON (Unexpected end of JSON input). Send the parameters as a JSON object.',
    });
  });

  it('reads a schema with properties but no type as an object', () => {
    expect(prepareToolInput('t', { properties: { n: { type: 'integer' } } }, '"x"')).toEqual({
      ok: false,
      message: 'Invalid input for t: (input) must be an object; you sent "x"',
    });
  });
});
