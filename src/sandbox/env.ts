/**
 * Variables of opencode's environment that a sandboxed program does not get: those that lead to a
 * program of the host (an agent's or a server's Unix socket, a display) and those that hold a
 * credential of a cloud or a code host (the files holding the same are among the secret places).
 * The provider keys opencode itself uses are removed everywhere (`CREDENTIAL_ENV_NAMES`, redact.ts);
 * these only inside the sandbox: a command run outside it (the person's choice) keeps them.
 */

/** Exact names, one reason each. */
export const SANDBOX_HIDDEN_ENV: ReadonlyArray<{ name: string; reason: string }> = [
  { name: 'SSH_AUTH_SOCK', reason: 'the ssh-agent: signs with keys the sandbox hides' },
  { name: 'SSH_AGENT_PID', reason: 'the ssh-agent' },
  { name: 'GPG_AGENT_INFO', reason: 'the gpg-agent: decrypts and signs with hidden keys' },
  { name: 'TMUX', reason: 'the tmux server: send-keys runs commands outside the sandbox' },
  { name: 'TMUX_PANE', reason: 'the tmux pane to type into' },
  { name: 'STY', reason: 'the screen session: stuff runs commands outside the sandbox' },
  { name: 'DBUS_SESSION_BUS_ADDRESS', reason: 'the D-Bus session bus: starts programs, reads the keyring' },
  { name: 'DISPLAY', reason: 'the X server: another window can be typed into' },
  { name: 'WAYLAND_DISPLAY', reason: 'the Wayland compositor' },
  { name: 'XAUTHORITY', reason: 'the X server cookie' },
  { name: 'DOCKER_HOST', reason: 'the Docker daemon: a container with the host mounted' },
  { name: 'CONTAINER_HOST', reason: 'the Podman service' },
  { name: 'KITTY_LISTEN_ON', reason: 'the kitty terminal remote control' },
  { name: 'WEZTERM_UNIX_SOCKET', reason: 'the WezTerm multiplexer' },
  { name: 'NVIM', reason: 'the Neovim server of the editor opencode runs in' },
  { name: 'VSCODE_IPC_HOOK_CLI', reason: 'the VS Code window opencode runs in' },
  { name: 'AWS_ACCESS_KEY_ID', reason: 'AWS credentials' },
  { name: 'AWS_SECRET_ACCESS_KEY', reason: 'AWS credentials' },
  { name: 'AWS_SESSION_TOKEN', reason: 'AWS credentials' },
  { name: 'AWS_SECURITY_TOKEN', reason: 'AWS credentials' },
  { name: 'AWS_BEARER_TOKEN_BEDROCK', reason: 'AWS credentials' },
  { name: 'GITHUB_TOKEN', reason: 'a GitHub token' },
  { name: 'GH_TOKEN', reason: 'a GitHub token' },
  { name: 'GH_ENTERPRISE_TOKEN', reason: 'a GitHub token' },
  { name: 'GITHUB_PERSONAL_ACCESS_TOKEN', reason: 'a GitHub token' },
  { name: 'GITLAB_TOKEN', reason: 'a GitLab token' },
  { name: 'NPM_TOKEN', reason: 'an npm publish token' },
  { name: 'NODE_AUTH_TOKEN', reason: 'an npm publish token' },
  { name: 'PYPI_TOKEN', reason: 'a PyPI token' },
  { name: 'TWINE_PASSWORD', reason: 'a PyPI password' },
  { name: 'CARGO_REGISTRY_TOKEN', reason: 'a crates.io token' },
  { name: 'HF_TOKEN', reason: 'a Hugging Face token' },
  { name: 'GOOGLE_APPLICATION_CREDENTIALS', reason: 'the Google Cloud key file' },
  { name: 'GOOGLE_API_KEY', reason: 'a Google API key' },
  { name: 'CLOUDSDK_AUTH_ACCESS_TOKEN', reason: 'a Google Cloud token' },
  { name: 'AZURE_CLIENT_SECRET', reason: 'Azure credentials' },
  { name: 'AZURE_CLIENT_CERTIFICATE_PASSWORD', reason: 'Azure credentials' },
  { name: 'AZURE_PASSWORD', reason: 'Azure credentials' },
  { name: 'ARM_CLIENT_SECRET', reason: 'Azure credentials (Terraform)' },
  { name: 'DIGITALOCEAN_ACCESS_TOKEN', reason: 'a DigitalOcean token' },
  { name: 'CLOUDFLARE_API_TOKEN', reason: 'a Cloudflare token' },
  { name: 'HEROKU_API_KEY', reason: 'a Heroku key' },
  { name: 'VAULT_TOKEN', reason: 'a HashiCorp Vault token' },
  { name: 'KUBECONFIG', reason: 'a Kubernetes cluster config with credentials' },
  { name: 'SLACK_TOKEN', reason: 'a Slack token' },
  { name: 'SENTRY_AUTH_TOKEN', reason: 'a Sentry token' },
];

/** Name patterns, one reason each: names of these forms hold secrets whatever the service. */
export const SANDBOX_HIDDEN_ENV_PATTERNS: ReadonlyArray<{ pattern: RegExp; reason: string }> = [
  { pattern: /^AWS_.*(SECRET|TOKEN|KEY_ID|PASSWORD)/, reason: 'AWS credentials' },
  { pattern: /^AZURE_.*(SECRET|TOKEN|PASSWORD|KEY)/, reason: 'Azure credentials' },
  {
    pattern: /(^|_)(API_KEY|APIKEY|ACCESS_TOKEN|AUTH_TOKEN|SECRET_KEY|CLIENT_SECRET|PRIVATE_KEY|PASSWORD)$/,
    reason: 'a key, token or password',
  },
];

/**
 * The names to remove from a sandboxed program's environment: every name of the table (unsetting an
 * absent one does nothing) and the names of `present` that match a pattern, except those of `keep`
 * (`shell.passEnv`, or the variables a server's own config entry sets).
 */
export function sandboxHiddenEnvNames(present: Iterable<string>, keep: readonly string[] = []): string[] {
  const kept = new Set(keep);
  const names = new Set(SANDBOX_HIDDEN_ENV.map((entry) => entry.name));
  for (const name of present)
    if (SANDBOX_HIDDEN_ENV_PATTERNS.some((entry) => entry.pattern.test(name))) names.add(name);
  return [...names].filter((name) => !kept.has(name));
}
