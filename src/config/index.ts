/**
 * Configuration: the `.opencode.json` schema, loading and merging, JSON Schema output and write-back.
 * Depends on nothing of ours (DESIGN.md), only on zod and node built-ins.
 */
export {
  AGENT_KINDS,
  DEFAULT_CONTEXT_PATHS,
  THEMES,
  configSchema,
  lspServerSchema,
  mcpServerSchema,
  type AgentConfig,
  type Config,
  type ConfigInput,
  type LspServerConfig,
  type McpServerConfig,
  type ProfileConfig,
  type ProviderConfig,
  type Theme,
} from './schema.js';
export {
  CONFIG_FILE_NAME,
  ConfigError,
  configSource,
  deepMerge,
  globalConfigCandidates,
  loadConfig,
  resolveDataDir,
  type LoadConfigOptions,
  type LoadedConfig,
} from './load.js';
export { configJsonSchema } from './json-schema.js';
export { setGlobalConfigValue } from './write.js';
export { setProjectConfigValue } from './write.js';
export {
  PROFILE_ENV,
  apiKeyEnvNames,
  applyProfile,
  chooseProfileName,
  profileDecides,
  profileProviders,
  unknownProfileMessage,
} from './profiles.js';
