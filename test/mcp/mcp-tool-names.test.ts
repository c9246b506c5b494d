/**
 * MCP tool names are safe for every provider: `<server>_<tool>`, only [a-zA-Z0-9_-], at most 64
 * characters with a stable hash for long names, and collisions resolved the same way every time.
 */
import { describe, expect, it } from 'vitest';
import { assignToolNames, sanitizeToolName, shortHash, toolKey } from '../../src/mcp/names.js';

const SAFE = /^[a-zA-Z0-9_-]{1,64}$/;

describe('MCP tool names', () => {
  it('joins server and tool with an underscore, as the original', () => {
    expect(sanitizeToolName('github', 'create_issue')).toBe('github_create_issue');
  });

  it('replaces characters providers refuse with underscores', () => {
    expect(sanitizeToolName('my.server', 'read file/v2')).toBe('my_server_read_file_v2');
    expect(sanitizeToolName('ünï', 'tool:x')).toBe('_n__tool_x');
    expect(sanitizeToolName('a-b', 'c-d')).toBe('a-b_c-d');
  });

  it('cuts a name over 64 characters and ends it with a hash of the full name', () => {
    const tool = 'measure_the_distance_between_two_points_on_a_plane_with_a_long_name_xy';
    const name = sanitizeToolName('test', tool);
    expect(name).toHaveLength(64);
    expect(name).toMatch(SAFE);
    expect(name).toBe(`test_measure_the_distance_between_two_points_on_a_plane_${shortHash(`test_${tool}`)}`);
    // stable across calls and processes: the hash is of the name, nothing else
    expect(sanitizeToolName('test', tool)).toBe(name);
  });

  it('keeps two long names with the same first 55 characters apart', () => {
    const prefix = 'x'.repeat(70);
    const a = sanitizeToolName('s', `${prefix}_alpha`);
    const b = sanitizeToolName('s', `${prefix}_beta`);
    expect(a).not.toBe(b);
    expect(a.slice(0, 55)).toBe(b.slice(0, 55));
  });

  it('resolves a collision deterministically, whatever the order, with a warning', () => {
    const forward = assignToolNames([
      { server: 'a.b', tool: 'c' },
      { server: 'a_b', tool: 'c' },
    ]);
    const backward = assignToolNames([
      { server: 'a_b', tool: 'c' },
      { server: 'a.b', tool: 'c' },
    ]);
    expect(forward.names).toEqual(backward.names);
    // "a.b" sorts before "a_b" (code-unit order), so it keeps the plain name
    expect(forward.names.get(toolKey('a.b', 'c'))).toBe('a_b_c');
    const renamed = forward.names.get(toolKey('a_b', 'c'))!;
    expect(renamed).toBe(`a_b_c_${shortHash(toolKey('a_b', 'c'))}`);
    expect(renamed).toMatch(SAFE);
    expect(forward.warnings).toEqual([
      `MCP tool "c" of server "a_b" and tool "c" of server "a.b" both map to "a_b_c"; the first is named "${renamed}"`,
    ]);
  });

  it('gives every tool a distinct safe name even when long names collide', () => {
    const long = 'y'.repeat(80);
    const { names } = assignToolNames([
      { server: 'srv', tool: long },
      { server: 'srv', tool: `${long}z` },
      { server: 'srv.', tool: long.slice(1) },
      { server: 'srv_', tool: long.slice(1) },
    ]);
    const values = [...names.values()];
    for (const name of values) expect(name).toMatch(SAFE);
    expect(new Set(values).size).toBe(names.size);
  });
});
