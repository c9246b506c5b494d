/**
 * The `.opencode.json` schema: the one source of truth for configuration keys, their types, defaults and
 * the descriptions editors show. Keys follow the original's config file.
 *
 * Objects are strict so that unknown keys surface as `unrecognized_keys` issues; the loader turns those
 * into warnings and drops the keys (see `load.ts`), and `configJsonSchema()` allows them again for editors.
 */
import { z } from 'zod';
import { AGENT_KINDS, DEFAULT_CONTEXT_PATHS, THEME_NAME_PATTERN, THEMES, type Theme } from './constants.js';

// defined zod-free in constants.ts (the TUI's first frame needs them without the schema)
export { AGENT_KINDS, DEFAULT_CONTEXT_PATHS, THEMES, type Theme };

const positiveInt = () => z.number().int().positive();

const modelSchema = z
  .strictObject({
    contextWindow: positiveInt().optional().describe('Context window of the model, in tokens.'),
    maxTokens: positiveInt().optional().describe('Largest output the model may produce in one reply, in tokens.'),
    canReason: z.boolean().optional().describe('Whether the model supports extended thinking / reasoning effort.'),
    supportsImages: z.boolean().optional().describe('Whether the model accepts image attachments.'),
  })
  .describe('A model served by this provider, overriding or adding to the built-in catalog.');

const providerSchema = z
  .strictObject({
    apiKey: z
      .string()
      // "${WORK_KEY}" would be sent as the key itself: say what to write instead
      .refine((key) => !ENV_REFERENCE.test(key.trim()), {
        error: (issue) =>
          `${JSON.stringify(issue.input)} is not expanded; for a key from the environment write "apiKeyEnv": "${String(issue.input).replace(/[${}]/g, '').trim()}"`,
      })
      .optional()
      .describe('API key; when absent the provider reads apiKeyEnv, else its usual environment variable.'),
    apiKeyEnv: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { error: 'expected an environment variable name, e.g. "WORK_ANTHROPIC_KEY"' })
      .optional()
      .describe(
        'Environment variable holding the API key, e.g. "WORK_ANTHROPIC_KEY"; when set, the provider\'s usual variable (ANTHROPIC_API_KEY, …) is not read.',
      ),
    disabled: z.boolean().optional().describe('Do not offer this provider even if a key is found.'),
    baseURL: z.string().optional().describe('Base URL of the API, for proxies and OpenAI-compatible servers.'),
    models: z
      .record(z.string(), modelSchema)
      .optional()
      .describe('Models of this provider by name, e.g. for a local OpenAI-compatible server.'),
    firstByteTimeoutMs: positiveInt()
      .optional()
      .describe(
        'Longest wait for the first byte of a reply, in milliseconds (default 60000); then the request is retried.',
      ),
    idleTimeoutMs: positiveInt()
      .optional()
      .describe(
        'Longest silence between two parts of a streamed reply, in milliseconds (default 120000); then the request is retried.',
      ),
    retryBudgetMs: positiveInt()
      .optional()
      .describe(
        'Longest time one request may spend failing and retrying before the error is reported, in milliseconds (default 180000).',
      ),
  })
  .describe('Settings of one provider.');

/** `${NAME}` or `$NAME`: an environment reference someone wrote where a value belongs. */
const ENV_REFERENCE = /^\$\{?[A-Za-z_][A-Za-z0-9_]*\}?$/;

const agentFields = {
  model: z
    .string()
    .optional()
    .describe('Model id as provider/model, e.g. "anthropic/claude-sonnet-5-5", "openai/gpt-4.1", "local/qwen3-coder".'),
  maxTokens: positiveInt().optional().describe('Output token cap per reply.'),
  reasoningEffort: z
    .enum(['low', 'medium', 'high'])
    .optional()
    .describe('Reasoning effort for models that can reason.'),
};
const MAX_STEPS_DESCRIPTION = 'Most model calls in one run before it stops with "step_limit".';

const agentSchema = z
  .strictObject({ ...agentFields, maxSteps: positiveInt().default(100).describe(MAX_STEPS_DESCRIPTION) })
  .describe('Settings of one agent kind.');

/** An agent kind's settings in a profile: no defaults, so only what the profile sets overrides the file's. */
const profileAgentSchema = z
  .strictObject({ ...agentFields, maxSteps: positiveInt().optional().describe(MAX_STEPS_DESCRIPTION) })
  .describe('Settings of one agent kind under this profile.');

const envSchema = z
  .union(
    [
      z.record(z.string(), z.string()),
      z.array(z.string().regex(/^[^=]+=/, { error: 'expected a "KEY=VALUE" string' })),
    ],
    { error: 'expected an object of strings or an array of "KEY=VALUE" strings' },
  )
  // One shape for callers: the original took only "KEY=VALUE" strings.
  .transform((env): Record<string, string> =>
    Array.isArray(env)
      ? Object.fromEntries(env.map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]))
      : env,
  );

/**
 * What one program opencode starts for the project (a stdio MCP server, a language server, a declarative
 * tool) may do beyond the sandbox's defaults: it writes only in the project and its own temp directory,
 * and has no network. Read by `src/sandbox/process.ts`.
 */
export const processSandboxSchema = z
  .strictObject({
    network: z
      .boolean()
      .optional()
      .describe(
        "true: the program may reach the network (default false: no network, DNS included, except the hosts of sandbox.network.allowedDomains through the sandbox's proxy).",
      ),
    allowWrite: z
      .array(z.string())
      .optional()
      .describe(
        'More places the program may write, besides the project and its temp directory: absolute, "~/…", or relative to the project.',
      ),
  })
  .describe('How the sandbox treats this program: network access and extra writable places.');

const sandboxModeSchema = z
  .enum(['auto', 'required', 'off'])
  .describe(
    '"auto": commands run in the OS sandbox where it can start (else one notice says only the permission checks protect the run); "required": commands are refused without it; "off": no sandbox.',
  );

/**
 * The OS sandbox of the bash tool's commands (`src/sandbox`): a mode string, or an object with the
 * mode and the places and hosts it adds.
 */
export const sandboxSchema = z
  .union([
    sandboxModeSchema,
    z.strictObject({
      mode: sandboxModeSchema.optional(),
      allowWrite: z
        .array(z.string())
        .optional()
        .describe(
          'More places commands may write besides the project and their temp directory: absolute, "~/…", or relative to the project; only existing ones count.',
        ),
      denyRead: z
        .array(z.string())
        .optional()
        .describe(
          'More places hidden from commands, besides ~/.ssh, ~/.aws, ~/.gnupg, ~/.config/gcloud, ~/.netrc, ~/.docker/config.json, ~/.kube and the keyrings.',
        ),
      network: z
        .strictObject({
          allowedDomains: z
            .array(z.string())
            .optional()
            .describe(
              'Hosts commands run without approval may reach through the sandbox\'s proxy, e.g. ["registry.npmjs.org", "*.github.com"]; "*." also matches the domain itself.',
            ),
        })
        .optional()
        .describe("Network access of commands that ran without the person's approval (none by default, DNS included)."),
    }),
  ])
  .describe(
    'Run the bash tool\'s commands in an OS sandbox (bubblewrap on Linux, sandbox-exec on macOS): "auto" (default), "required", "off", or an object with "mode", "allowWrite", "denyRead" and "network.allowedDomains".',
  );

/** The shape of one `mcpServers` entry, as written in the file. */
export const mcpServerSchema = z
  .strictObject({
    type: z
      .enum(['stdio', 'sse', 'http'])
      .default('stdio')
      .describe('How to reach the server: a child process (stdio) or a URL (sse, http).'),
    command: z.string().optional().describe('Executable to start (stdio).'),
    args: z.array(z.string()).optional().describe('Arguments of the command (stdio).'),
    env: envSchema
      .optional()
      .describe('Extra environment of the command (stdio): an object, or an array of "KEY=VALUE" strings.'),
    url: z.string().optional().describe('Server URL (sse, http).'),
    headers: z.record(z.string(), z.string()).optional().describe('HTTP headers sent to the server (sse, http).'),
    timeout: positiveInt().optional().describe('Milliseconds to wait for a tool call of this server (default 60000).'),
    disabled: z.boolean().optional().describe('Keep the entry but do not start the server.'),
    sandbox: processSandboxSchema.optional(),
  })
  .describe('A Model Context Protocol server whose tools the agent may use.');

/** The shape of one `lsp` entry, as written in the file. */
export const lspServerSchema = z
  .strictObject({
    command: z
      .string()
      .optional()
      .describe('Language server executable, e.g. "typescript-language-server" (on PATH, or a path).'),
    args: z.array(z.string()).optional().describe('Arguments, e.g. ["--stdio"].'),
    options: z
      .unknown()
      .optional()
      .describe("The original's name for initializationOptions (used when initializationOptions is not set)."),
    disabled: z
      .boolean()
      .optional()
      .describe('Keep the entry but do not start the server; also stops discovery of this language.'),
    env: z.record(z.string(), z.string()).optional().describe('Extra environment of the server process.'),
    extensions: z
      .array(z.string())
      .optional()
      .describe(
        'File extensions it serves, e.g. [".lua"]; defaults to the known ones for typescript, python, go, rust and c.',
      ),
    initializationOptions: z.unknown().optional().describe('initializationOptions sent with initialize.'),
    startTimeoutMs: positiveInt()
      .optional()
      .describe(
        'Milliseconds the server may take to answer initialize, and to finish its initial load before an edit stops waiting for it (default 10000).',
      ),
    diagnosticsTimeoutMs: positiveInt()
      .optional()
      .describe('Milliseconds an edit, write or patch waits for fresh diagnostics (default 5000).'),
    sandbox: processSandboxSchema.optional(),
  })
  .describe('A language server used for diagnostics after edits.');

const agentsSchema = z
  .strictObject({
    coder: agentSchema.prefault({}).describe('The main agent, with every tool.'),
    task: agentSchema.prefault({}).describe('The sub-agent the "agent" tool starts, with read-only tools.'),
    title: agentSchema.prefault({}).describe('Writes session titles.'),
    summarizer: agentSchema.prefault({}).describe('Writes the summary when a session is compacted.'),
  })
  .prefault({})
  .describe('Per-agent settings: coder (main), task (sub-agent), title, summarizer.');

/**
 * One entry of `profiles`: provider settings and agent models applied over the file's
 * own when the profile is active (`--profile NAME`, `OPENCODE_PROFILE`, or the TUI's profile dialog).
 */
export const profileSchema = z
  .strictObject({
    description: z.string().optional().describe('One line shown by `opencode profiles` and the profile dialog.'),
    providers: z
      .record(z.string(), providerSchema)
      .optional()
      .describe(
        'Provider settings merged over "providers"; a profile\'s apiKey or apiKeyEnv replaces the file\'s key for that provider.',
      ),
    agents: z
      .strictObject({
        coder: profileAgentSchema.optional(),
        task: profileAgentSchema.optional(),
        title: profileAgentSchema.optional(),
        summarizer: profileAgentSchema.optional(),
      })
      .optional()
      .describe('Agent settings merged over "agents", e.g. {"coder": {"model": "anthropic/claude-sonnet-5-5"}}.'),
  })
  .describe('A named set of provider settings and agent models.');

const permissionActionSchema = z.enum(['allow', 'ask', 'deny'], {
  error: 'expected "allow", "ask" or "deny"',
});

/**
 * The `permission` setting: one action for every tool, or per tool (a tool name, an MCP
 * tool's full name, or a wildcard such as `*` or `github_*`) one action or an object of patterns →
 * action. Rules are read in key order and the last match wins (`src/permission/rules.ts`).
 */
export const permissionSchema = z
  .union(
    [
      permissionActionSchema,
      z.record(
        z.string(),
        z.union([permissionActionSchema, z.record(z.string(), permissionActionSchema)], {
          error: 'expected "allow", "ask", "deny" or an object of pattern → action',
        }),
      ),
    ],
    { error: 'expected "allow", "ask", "deny" or an object of tool → action or patterns' },
  )
  .describe(
    'Permission rules: "ask", {"edit": "ask", "fetch": "deny"}, or {"bash": {"*": "ask", "git status*": "allow", "rm *": "deny"}}. ' +
      'Patterns use * and ?; the last matching rule wins. bash patterns match each command of a compound line (without env prefixes and wrappers), ' +
      'edit/write/patch the file path relative to the project (or absolute), fetch the URL or its host.',
  );

/** The whole `.opencode.json` file. Every key is optional; parsing fills defaults. */
export const configSchema = z
  .strictObject({
    $schema: z.string().optional().describe('JSON Schema of this file, for editors.'),
    data: z
      .strictObject({
        directory: z
          .string()
          .default('.opencode')
          .describe('Where the database and logs live; relative paths are relative to the project directory.'),
      })
      .prefault({})
      .describe('Storage settings.'),
    providers: z
      .record(z.string(), providerSchema)
      .default({})
      .describe('Providers by id, e.g. "anthropic", "openai".'),
    agents: agentsSchema,
    profiles: z
      .record(z.string(), profileSchema)
      .default({})
      .describe(
        'Named sets of provider settings and agent models, e.g. "work", "home", "local"; chosen with --profile NAME or OPENCODE_PROFILE.',
      ),
    mcpServers: z.record(z.string(), mcpServerSchema).default({}).describe('MCP servers by name.'),
    lsp: z
      .union([z.literal(false), z.record(z.string(), lspServerSchema)])
      .default({})
      .describe(
        'Language servers by language, e.g. "typescript"; installed servers are found without an entry; false turns them all off.',
      ),
    shell: z
      .strictObject({
        path: z.string().optional().describe('Shell for the bash tool; defaults to $SHELL, then /bin/bash.'),
        args: z
          .array(z.string())
          .optional()
          .describe(
            'Arguments the shell starts with. Default none: each command runs in a fresh non-login shell that restores the previous cwd and exports (pass ["-l"] to read login profiles on every command).',
          ),
        passEnv: z
          .array(z.string())
          .optional()
          .describe(
            'Provider credentials (e.g. "OPENAI_API_KEY") the shell\'s commands may see. By default the bash tool\'s environment holds none of the API keys opencode uses; their values are shown as [redacted] in tool output either way.',
          ),
      })
      .prefault({})
      .describe('The shell the bash tool runs commands in.'),
    sandbox: sandboxSchema.default('auto'),
    autoCompact: z.boolean().default(true).describe("Summarise the session when the context nears the model's window."),
    contextPaths: z
      .array(z.string())
      .default([...DEFAULT_CONTEXT_PATHS])
      .describe(
        'Instruction files added to the system prompt, relative to the project; a trailing "/" reads a directory.',
      ),
    sourcegraph: z
      .strictObject({
        url: z
          .string()
          .optional()
          .describe(
            'GraphQL endpoint of a self-hosted instance, e.g. "https://sourcegraph.example.com/.api/graphql" (an instance URL without a path gets /.api/graphql). Default https://sourcegraph.com/.api/graphql.',
          ),
      })
      .optional()
      .describe('The Sourcegraph instance the sourcegraph tool searches.'),
    tui: z
      .strictObject({
        theme: z
          .string()
          .regex(THEME_NAME_PATTERN, {
            error:
              'expected a theme name: letters, digits, ".", "_" or "-" (a built-in, or NAME of a themes/NAME.json file)',
          })
          .default('opencode')
          .describe(
            `Colour theme: a built-in (${THEMES.join(', ')}) or the name of a theme file, .opencode/themes/NAME.json in the project or ~/.config/opencode/themes/NAME.json.`,
          ),
      })
      .prefault({})
      .describe('Terminal UI settings.'),
    keybindings: z
      .record(
        z.string(),
        z.union([z.string(), z.array(z.string())], { error: 'expected a key ("ctrl+n"), a list of keys or "none"' }),
      )
      .default({})
      .describe(
        'TUI keys by action name, e.g. {"session.new": ["ctrl+n", "alt+n"], "app.logs": "none"}; `opencode keybindings` lists the actions. ' +
          'Keys: ctrl+, alt+, shift+ with a character or esc, enter, tab, backspace, delete, space, up, down, left, right, home, end, pgup, pgdown, f1-f12.',
      ),
    permission: permissionSchema.optional(),
    debug: z.boolean().default(false).describe('Verbose logging.'),
    debugLSP: z.boolean().default(false).describe('Log language-server traffic.'),
    tools: z
      .record(z.string(), z.boolean())
      .default({})
      .describe(
        'Tools by name: false turns one off whatever its source (built-in, MCP, custom), e.g. {"sourcegraph": false}.',
      ),
    plugins: z
      .array(z.string())
      .default([])
      .describe(
        'Plugin packages to load, resolved from the project\'s node_modules (nothing is downloaded), e.g. ["opencode-plugin-audit"].',
      ),
  })
  .describe('OpenCode configuration (.opencode.json).');

/** One MCP server entry after parsing (`env` normalised to an object). */
export type McpServerConfig = z.output<typeof mcpServerSchema>;
/** One entry's `sandbox` (MCP server, language server, declarative tool) after parsing. */
export type ProcessSandboxConfig = z.output<typeof processSandboxSchema>;
/** One language-server entry after parsing. */
export type LspServerConfig = z.output<typeof lspServerSchema>;
/** One provider entry after parsing. */
export type ProviderConfig = z.output<typeof providerSchema>;
/** One `profiles` entry after parsing. */
export type ProfileConfig = z.output<typeof profileSchema>;
/** One agent entry after parsing (`maxSteps` filled). */
export type AgentConfig = z.output<typeof agentSchema>;
/** The file as a person writes it: every key optional. */
export type ConfigInput = z.input<typeof configSchema>;

/** The loaded configuration: the schema's output. */
export type Config = z.output<typeof configSchema>;
