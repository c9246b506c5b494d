/**
 * "Always allow in this project": the rule lands in the project's .opencode.json by a minimal text
 * edit, so the file's other keys, order, indentation and line endings stay exactly as written.
 */
import { existsSync, mkdtempSync, readFileSync, statSync, chmodSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { ConfigError } from '../../src/config/load.js';
import { addAllowRules, saveProjectRules } from '../../src/permission/project-rules.js';
import { permissionRules } from '../../src/permission/rules.js';
import { PermissionService } from '../../src/permission/service.js';

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'opencode-always-'));
  file = join(dir, '.opencode.json');
});

describe('always allow: the file text before and after', () => {
  it('adds "permission" at the end of a file without it, in the file\'s own indentation, keeping everything else', () => {
    const before = [
      '{',
      '    "$schema": "./opencode-schema.json",',
      '    "agents": { "coder": { "model": "anthropic/claude-sonnet-5-5" } },',
      '    "myOwnKey": [1, 2,   3],',
      '    "debug": false',
      '}',
      '',
    ].join('\n');
    writeFileSync(file, before);
    expect(saveProjectRules(dir, 'bash', ['git checkout *'])).toEqual([]);
    expect(readFileSync(file, 'utf8')).toBe(
      [
        '{',
        '    "$schema": "./opencode-schema.json",',
        '    "agents": { "coder": { "model": "anthropic/claude-sonnet-5-5" } },',
        '    "myOwnKey": [1, 2,   3],',
        '    "debug": false,',
        '    "permission": {',
        '        "bash": {',
        '            "git checkout *": "allow"',
        '        }',
        '    }',
        '}',
        '',
      ].join('\n'),
    );
  });

  it("puts the new pattern last in the tool's rules (the last match wins), moving an existing one", () => {
    const before = [
      '{',
      '  "permission": {',
      '    "bash": {',
      '      "npm run test *": "ask",',
      '      "*": "ask",',
      '      "rm *": "deny"',
      '    },',
      '    "edit": "ask"',
      '  },',
      '  "tui": {"theme": "dracula"}',
      '}',
      '',
    ].join('\n');
    writeFileSync(file, before);
    saveProjectRules(dir, 'bash', ['npm run test *']);
    expect(readFileSync(file, 'utf8')).toBe(
      [
        '{',
        '  "permission": {',
        '    "bash": {',
        '      "*": "ask",',
        '      "rm *": "deny",',
        '      "npm run test *": "allow"',
        '    },',
        '    "edit": "ask"',
        '  },',
        '  "tui": {"theme": "dracula"}',
        '}',
        '',
      ].join('\n'),
    );
  });

  it("turns a tool's single action into patterns, keeping that action for the rest", () => {
    writeFileSync(file, '{\n\t"permission": {\n\t\t"edit": "ask",\n\t\t"fetch": "deny"\n\t}\n}');
    saveProjectRules(dir, 'edit', ['src/a.ts'], { literal: true });
    expect(readFileSync(file, 'utf8')).toBe(
      '{\n\t"permission": {\n\t\t"edit": {\n\t\t\t"*": "ask",\n\t\t\t"src/a.ts": "allow"\n\t\t},\n\t\t"fetch": "deny"\n\t}\n}',
    );
  });

  it('turns one action for everything into "*" plus the tool', () => {
    writeFileSync(file, '{\r\n  "permission": "ask"\r\n}\r\n');
    saveProjectRules(dir, 'fetch', ['example.com'], { literal: true });
    expect(readFileSync(file, 'utf8')).toBe(
      '{\r\n  "permission": {\r\n    "*": "ask",\r\n    "fetch": {\r\n      "example.com": "allow"\r\n    }\r\n  }\r\n}\r\n',
    );
  });

  it('writes an MCP tool as a whole-tool action', () => {
    writeFileSync(file, '{"permission":{"bash":"ask"}}');
    saveProjectRules(dir, 'github_create_issue', ['*']);
    expect(readFileSync(file, 'utf8')).toBe('{"permission":{"bash":"ask","github_create_issue":"allow"}}');
  });

  it('creates the file when there is none', () => {
    saveProjectRules(dir, 'bash', ['make *', 'npm i *']);
    expect(readFileSync(file, 'utf8')).toBe(
      '{\n  "permission": {\n    "bash": {\n      "make *": "allow",\n      "npm i *": "allow"\n    }\n  }\n}\n',
    );
  });

  it('keeps a byte order mark and the file mode', () => {
    writeFileSync(file, '\ufeff{\n  "debug": true\n}\n');
    chmodSync(file, 0o640);
    saveProjectRules(dir, 'bash', ['make *']);
    expect(readFileSync(file, 'utf8')).toBe(
      '\ufeff{\n  "debug": true,\n  "permission": {\n    "bash": {\n      "make *": "allow"\n    }\n  }\n}\n',
    );
    expect(statSync(file).mode & 0o777).toBe(0o640);
  });

  it('the file it writes loads, and the new rule allows what was granted', () => {
    writeFileSync(file, '{\n  "permission": {"bash": {"*": "ask"}}\n}\n');
    saveProjectRules(dir, 'bash', ['git checkout *']);
    const { config } = loadConfig({ cwd: dir, env: {}, home: join(dir, 'no-home') });
    expect(permissionRules(config.permission)).toEqual([
      { tool: 'bash', pattern: '*', action: 'ask' },
      { tool: 'bash', pattern: 'git checkout *', action: 'allow' },
    ]);
  });
});

describe('always allow: what it refuses or warns about', () => {
  it('leaves an invalid file alone and says why', () => {
    writeFileSync(file, '{"debug": true,,}');
    expect(() => saveProjectRules(dir, 'bash', ['make *'])).toThrow(ConfigError);
    expect(readFileSync(file, 'utf8')).toBe('{"debug": true,,}');
  });

  it('warns when a later rule overrides the new one', () => {
    writeFileSync(file, '{"permission": {"bash": {"make *": "ask"}, "*": "deny"}}');
    expect(saveProjectRules(dir, 'bash', ['make *'])).toEqual([
      `${file}: the new rule bash "make *": "allow" is overridden by the later rule every tool "*": "deny"; move it below that rule for it to take effect next time.`,
    ]);
  });

  it('does not write a file path with a wildcard character as a rule', () => {
    expect(saveProjectRules(dir, 'edit', ['src/*.ts'], { literal: true })).toEqual([
      'Not saved as a rule: "src/*.ts" contains * or ?, which a rule would read as a wildcard; it is allowed for this session only.',
    ]);
    expect(existsSync(file)).toBe(false);
  });

  it('addAllowRules is a pure text edit', () => {
    expect(addAllowRules('{ "a": 1 }', 'bash', ['ls *'])).toBe('{ "a": 1, "permission": {"bash":{"ls *":"allow"}} }');
  });
});

describe('always allow through the service', () => {
  it('writes the rule into .opencode.json and allows at once', async () => {
    writeFileSync(file, '{\n  "debug": false\n}\n');
    const service = new PermissionService(dir, {
      saveRules: (tool, patterns, options) => saveProjectRules(dir, tool, patterns, options),
    });
    let asked = 0;
    service.onRequest((r) => {
      asked++;
      service.respond(r.id, 'allow_always');
    });
    const npm = (command: string) => ({
      action: 'execute',
      description: `Execute command: ${command}`,
      params: { command },
      subject: {
        kind: 'command' as const,
        command,
        parts: [{ text: command, wrappers: [], readOnly: false, scope: 'npm run test *' }],
        writes: [],
        readOnly: false,
      },
    });
    await service.request('s1', 'bash', npm('npm run test'));
    await service.request('s2', 'bash', npm('npm run test -- a.test.ts'));
    expect(asked).toBe(1);
    expect(readFileSync(file, 'utf8')).toBe(
      '{\n  "debug": false,\n  "permission": {\n    "bash": {\n      "npm run test *": "allow"\n    }\n  }\n}\n',
    );
  });
});
