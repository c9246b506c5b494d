import { describe, expect, it } from 'vitest';
import { configJsonSchema } from '../../src/config/index.js';

type Node = {
  properties?: Record<string, Node>;
  additionalProperties?: unknown;
  description?: string;
  default?: unknown;
  enum?: unknown[];
};

describe('configJsonSchema', () => {
  const schema = configJsonSchema() as Node & { $schema: string; title: string };
  const props = schema.properties!;

  it('is a draft 2020-12 schema of an object with every top-level key', () => {
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.title).toBe('OpenCode configuration');
    expect(Object.keys(props)).toEqual([
      '$schema',
      'data',
      'providers',
      'agents',
      'profiles',
      'mcpServers',
      'lsp',
      'shell',
      'sandbox',
      'autoCompact',
      'contextPaths',
      'sourcegraph',
      'tui',
      'keybindings',
      'permission',
      'debug',
      'debugLSP',
      'tools',
      'plugins',
    ]);
  });

  it('describes nested keys so editors can complete them', () => {
    const agent = props.agents.properties!.coder;
    expect(Object.keys(agent.properties!)).toEqual(['model', 'maxTokens', 'reasoningEffort', 'maxSteps']);
    expect(agent.properties!.reasoningEffort.enum).toEqual(['low', 'medium', 'high']);
    expect(agent.properties!.maxSteps.default).toBe(100);
    expect(Object.keys(props.agents.properties!)).toEqual(['coder', 'task', 'title', 'summarizer']);

    const mcp = props.mcpServers.additionalProperties as Node;
    expect(Object.keys(mcp.properties!)).toEqual([
      'type',
      'command',
      'args',
      'env',
      'url',
      'headers',
      'timeout',
      'disabled',
      'sandbox',
    ]);
    // what the sandbox lets one program (stdio MCP server, language server) do beyond its defaults
    expect(Object.keys(mcp.properties!.sandbox.properties!)).toEqual(['network', 'allowWrite']);
    const provider = props.providers.additionalProperties as Node;
    expect(Object.keys(provider.properties!)).toEqual([
      'apiKey',
      'apiKeyEnv',
      'disabled',
      'baseURL',
      'models',
      'firstByteTimeoutMs',
      'idleTimeoutMs',
      'retryBudgetMs',
    ]);
    // "lsp": false turns every server off; otherwise an object of entries
    const lspVariants = (props.lsp as Node & { anyOf: Node[] }).anyOf;
    expect(lspVariants[0]).toEqual({ type: 'boolean', const: false });
    const lsp = lspVariants[1]!.additionalProperties as Node;
    expect(Object.keys(lsp.properties!)).toEqual([
      'command',
      'args',
      'options',
      'disabled',
      'env',
      'extensions',
      'initializationOptions',
      'startTimeoutMs',
      'diagnosticsTimeoutMs',
      'sandbox',
    ]);
    expect(lsp.properties!.sandbox).toEqual(mcp.properties!.sandbox);
    expect(props.tui.properties!.theme.default).toBe('opencode');
    // "sandbox": a mode string, or an object with the mode, the extra places and the allowed hosts
    const sandboxVariants = (props.sandbox as Node & { anyOf: Node[] }).anyOf;
    expect(props.sandbox.default).toBe('auto');
    expect(sandboxVariants[0]!.enum).toEqual(['auto', 'required', 'off']);
    expect(Object.keys(sandboxVariants[1]!.properties!)).toEqual(['mode', 'allowWrite', 'denyRead', 'network']);
    expect(Object.keys(sandboxVariants[1]!.properties!.network.properties!)).toEqual(['allowedDomains']);
    // a profile: provider entries as under "providers", agent kinds without defaults (only what it sets overrides)
    const profile = props.profiles.additionalProperties as Node;
    expect(Object.keys(profile.properties!)).toEqual(['description', 'providers', 'agents']);
    expect(Object.keys((profile.properties!.providers.additionalProperties as Node).properties!)).toEqual(
      Object.keys(provider.properties!),
    );
    const profileCoder = profile.properties!.agents.properties!.coder;
    expect(Object.keys(profileCoder.properties!)).toEqual(['model', 'maxTokens', 'reasoningEffort', 'maxSteps']);
    expect(profileCoder.properties!.maxSteps.default).toBeUndefined();
    expect(props.data.properties!.directory.default).toBe('.opencode');
  });

  it('gives every property a description', () => {
    const missing: string[] = [];
    const walk = (node: Node, at: string): void => {
      for (const [key, child] of Object.entries(node.properties ?? {})) {
        if (!child.description) missing.push(`${at}${key}`);
        walk(child, `${at}${key}.`);
      }
      if (node.additionalProperties && typeof node.additionalProperties === 'object')
        walk(node.additionalProperties as Node, `${at}*.`);
    };
    walk(schema, '');
    expect(missing).toEqual([]);
  });

  it('allows unknown keys (the loader only warns about them)', () => {
    const forbidden: string[] = [];
    const walk = (node: unknown, at: string): void => {
      if (node === null || typeof node !== 'object') return;
      if ((node as Node).additionalProperties === false) forbidden.push(at || '(root)');
      for (const [key, child] of Object.entries(node)) walk(child, at ? `${at}.${key}` : key);
    };
    walk(schema, '');
    expect(forbidden).toEqual([]);
  });
});
