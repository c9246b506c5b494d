/**
 * Checking declarative tool files: every problem is one line naming its place; a broken
 * tool is skipped while the others of the file load; what the model would have to guess is a warning.
 */
import { describe, expect, it } from 'vitest';
import { parseToolFile } from '../../src/custom/declarative-spec.js';

const FILE = '/p/.opencode/tools/status.yaml';

describe('parseToolFile', () => {
  it('reads a full YAML tool, with defaults for what is left out', () => {
    const parsed = parseToolFile(
      [
        'name: query_service_status',
        'description: Current status of a service.',
        'parameters:',
        '  type: object',
        '  properties:',
        '    service: { type: string, description: The service name }',
        '  required: [service]',
        'script: ../scripts/status.sh',
        'env: { API_URL: "${MONITOR_URL}" }',
      ].join('\n'),
      FILE,
      'yaml',
    );
    expect(parsed).toEqual({
      errors: [],
      warnings: [],
      tools: [
        {
          name: 'query_service_status',
          description: 'Current status of a service.',
          parameters: {
            type: 'object',
            properties: { service: { type: 'string', description: 'The service name' } },
            required: ['service'],
          },
          script: '/p/.opencode/scripts/status.sh',
          env: { API_URL: '${MONITOR_URL}' },
          timeoutMs: 60_000,
          readOnly: false,
          outputFormat: 'text',
        },
      ],
    });
  });

  it.each([
    // [file text, error line]
    ['name: x\ndescription: d\n', 'command: missing (give command as an argv array, or script as a path)'],
    [
      'name: x\ndescription: d\ncommand: "ls -la"\n',
      'command: expected an argv array of strings, e.g. ["git", "log", "-n", "{{count}}"] (never a shell string)',
    ],
    ['name: x\ndescription: d\ncommand: [ls, "{{dir}}"]\n', 'command[1]: {{dir}} is not a parameter'],
    ['name: x y\ndescription: d\ncommand: [ls]\n', 'name: "x y" may hold only letters, digits, _ and - (at most 64)'],
    [
      'name: x\ncommand: [ls]\ntimeout: -1\n',
      'description: missing (say when to use the tool and when not); timeout: expected a positive number of milliseconds',
    ],
    ['name: x\ndescription: d\ncommand: [ls]\noutputFormat: xml\n', 'outputFormat: expected "text" or "json"'],
    [
      'name: x\ndescription: d\ncommand: [ls]\nparameters: { properties: {}, required: [a] }\n',
      'parameters.required: "a" is not a parameter',
    ],
    [
      'name: [unclosed\n',
      'not valid YAML: Flow sequence in block collection must be sufficiently indented and end with a ] at line 2, column 1',
    ],
  ])('%j → %j', (text, line) => {
    const parsed = parseToolFile(text, FILE, 'yaml');
    expect(parsed.tools).toEqual([]);
    expect(parsed.errors).toEqual([line]);
  });

  it('warns about a parameter without type or description, and still loads the tool', () => {
    const parsed = parseToolFile(
      'name: status\ndescription: d\nparameters:\n  properties:\n    service: { description: which }\n    region: { type: string }\ncommand: [echo, "{{service}}"]\ntimeout: 900000\n',
      FILE,
      'yaml',
    );
    expect(parsed.warnings).toEqual([
      'parameters.service.type: missing',
      'parameters.region.description: missing',
      'timeout: 900000 ms is above the maximum; 600000 ms (10 min) is used',
    ]);
    expect(parsed.tools.map((t) => [t.name, t.timeoutMs])).toEqual([['status', 600_000]]);
  });

  it('loads the good tools of a list and names the broken one', () => {
    const parsed = parseToolFile(
      JSON.stringify([
        { name: 'a', description: 'A.', command: ['true'] },
        { name: 'b', command: ['true'] },
        { description: 'no name', command: ['true'] },
      ]),
      '/p/.opencode/tools/many.json',
      'json',
    );
    expect(parsed.tools.map((t) => t.name)).toEqual(['a']);
    expect(parsed.errors).toEqual([
      'b: description: missing (say when to use the tool and when not)',
      '[2]: name: missing',
    ]);
  });
});
