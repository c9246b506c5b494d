/**
 * A provider key written in the project's own `.opencode.json` is readable by every command run in
 * the project (a read-only `cat .opencode.json` runs without asking, and the sandbox lets commands
 * read the project) and travels with the repository. Loading such a file warns, once per key, and
 * says where the key belongs instead. Pure.
 */

/** One warning line per `apiKey` in a project config's value, e.g. `/p/.opencode.json: providers.anthropic.apiKey: …`. */
export function projectKeyWarnings(file: string, value: Record<string, unknown>): string[] {
  const found: string[] = [];
  const providers = (node: unknown, at: string) => {
    if (!isObject(node)) return;
    for (const [id, provider] of Object.entries(node)) {
      if (isObject(provider) && typeof provider.apiKey === 'string' && provider.apiKey !== '')
        found.push(`${at}.${id}.apiKey`);
    }
  };
  providers(value.providers, 'providers');
  if (isObject(value.profiles)) {
    for (const [name, profile] of Object.entries(value.profiles))
      if (isObject(profile)) providers(profile.providers, `profiles.${name}.providers`);
  }
  return found.map(
    (keyPath) =>
      `${file}: ${keyPath}: a provider key in the project's config can be read by any command run in the project and is shared with the repository; move it to your user config (~/.opencode.json) or name an environment variable with "apiKeyEnv"`,
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
