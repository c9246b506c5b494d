// The runtime API: embed the agent in a program, give it a tool of your own, and run a prompt.
// Run from a project directory with a provider configured (e.g. ANTHROPIC_API_KEY):
//   node examples/runtime-api.mjs "Is the checkout deploy healthy?"
import { createOpencode } from 'opencode';

const opencode = await createOpencode({ directory: process.cwd() });

opencode.tools.register({
  name: 'deploy_status',
  description: 'The state of the latest deploy of a service. Use it before answering questions about deploys.',
  args: {
    type: 'object',
    properties: { service: { type: 'string', description: 'The service name, e.g. "checkout".' } },
    required: ['service'],
  },
  readOnly: true,
  execute: async ({ service }) => `${service}: deployed 12 minutes ago by the release pipeline, healthy`,
});

opencode.events.on('tool.finished', (call) => console.error(`[tool] ${call.name}${call.isError ? ' failed' : ''}`));

const answer = await opencode.run('deploy-check', process.argv[2] ?? 'Is the checkout deploy healthy?');
console.log(answer.text);
await opencode.close();
