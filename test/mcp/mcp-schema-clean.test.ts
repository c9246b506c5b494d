/**
 * MCP input schemas are cleaned so every provider accepts them: references inlined, `$` keywords gone,
 * the top level a plain object, `required` kept.
 */
import { describe, expect, it } from 'vitest';
import { cleanInputSchema } from '../../src/mcp/schema.js';

describe('MCP input schema cleaning', () => {
  it('inlines $ref into $defs, keeps sibling keywords and required, drops $schema', () => {
    const cleaned = cleanInputSchema({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { from: { $ref: '#/$defs/Point' }, to: { $ref: '#/$defs/Point', description: 'end point' } },
      required: ['from', 'to'],
      $defs: {
        Point: { type: 'object', properties: { x: { type: 'number' }, y: { type: 'number' } }, required: ['x', 'y'] },
      },
    });
    const point = {
      type: 'object',
      properties: { x: { type: 'number' }, y: { type: 'number' } },
      required: ['x', 'y'],
    };
    expect(cleaned).toEqual({
      type: 'object',
      properties: { from: point, to: { ...point, description: 'end point' } },
      required: ['from', 'to'],
    });
    expect(JSON.stringify(cleaned)).not.toMatch(/\$ref|\$defs|\$schema/);
  });

  it('inlines draft-07 definitions and pointers with escapes', () => {
    const cleaned = cleanInputSchema({
      type: 'object',
      properties: { a: { $ref: '#/definitions/a~1b' }, list: { type: 'array', items: { $ref: '#/definitions/a~1b' } } },
      definitions: { 'a/b': { type: 'string', enum: ['x', 'y'] } },
    });
    expect(cleaned).toEqual({
      type: 'object',
      properties: {
        a: { type: 'string', enum: ['x', 'y'] },
        list: { type: 'array', items: { type: 'string', enum: ['x', 'y'] } },
      },
    });
  });

  it('cuts a recursive reference to "any value" where it recurses', () => {
    const cleaned = cleanInputSchema({
      type: 'object',
      properties: { tree: { $ref: '#/$defs/Node' } },
      $defs: {
        Node: {
          type: 'object',
          properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/Node' } } },
        },
      },
    });
    expect(cleaned.properties).toEqual({
      tree: { type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: {} } } },
    });
  });

  it('keeps a property named like a keyword ($id) while dropping the keyword', () => {
    const cleaned = cleanInputSchema({
      $id: 'urn:x',
      type: 'object',
      properties: { $id: { type: 'string', $comment: 'internal' } },
      required: ['$id'],
    });
    expect(cleaned).toEqual({ type: 'object', properties: { $id: { type: 'string' } }, required: ['$id'] });
  });

  it('merges top-level anyOf / allOf into one object (Anthropic refuses them at the top)', () => {
    const cleaned = cleanInputSchema({
      anyOf: [
        { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' } }, required: ['id', 'name'] },
        { type: 'object', properties: { id: { type: 'string' }, email: { type: 'string' } }, required: ['id'] },
      ],
      allOf: [{ properties: { verbose: { type: 'boolean' } }, required: ['verbose'] }],
    });
    expect(cleaned).toEqual({
      type: 'object',
      properties: {
        verbose: { type: 'boolean' },
        id: { type: 'string' },
        name: { type: 'string' },
        email: { type: 'string' },
      },
      required: ['verbose', 'id'],
    });
  });

  it('turns a missing or property-less schema into an empty object schema (OpenAI needs properties)', () => {
    expect(cleanInputSchema(undefined)).toEqual({ type: 'object', properties: {} });
    expect(cleanInputSchema({ type: 'object' })).toEqual({ type: 'object', properties: {} });
  });

  it('keeps additionalProperties, enum, default and format; boolean property schemas become objects', () => {
    const cleaned = cleanInputSchema({
      type: 'object',
      properties: { when: { type: 'string', format: 'date-time', default: 'now' }, anything: true },
      additionalProperties: false,
      required: ['when', 'when', 'ghost'],
    });
    expect(cleaned).toEqual({
      type: 'object',
      properties: { when: { type: 'string', format: 'date-time', default: 'now' }, anything: {} },
      additionalProperties: false,
      required: ['when'],
    });
  });
});
