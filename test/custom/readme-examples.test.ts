/**
 * The README's "Custom tools" examples are the files in examples/ that the tests run
 * (custom-tools-prompt.test.ts, runtime-api.test.ts): one source, so the README's examples run as written.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const section = readme.slice(readme.indexOf('## Custom tools'), readme.indexOf('\n## ', readme.indexOf('## Custom tools') + 1));

describe('README Custom tools', () => {
  it.each([
    ['yaml', 'examples/custom-tools/.opencode/tools/query_service_status.yaml'],
    ['sh', 'examples/custom-tools/.opencode/tools/service-status.sh'],
    ['ts', 'examples/custom-tools/.opencode/plugins/block-env.ts'],
    ['js', 'examples/runtime-api.mjs'],
  ])('shows %s %s exactly as the file is', (lang, file) => {
    expect(section).toContain(`\`\`\`${lang}\n${readFileSync(join(ROOT, file), 'utf8')}\`\`\``);
  });
});
