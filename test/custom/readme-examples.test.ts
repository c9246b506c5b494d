/**
 * The examples of docs/custom-tools.md are the files in examples/ that the tests run
 * (custom-tools-prompt.test.ts, runtime-api.test.ts): one source, so the page's examples run as written.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const page = readFileSync(join(ROOT, 'docs', 'custom-tools.md'), 'utf8');
const section = page.slice(page.indexOf('\n## Custom tools\n'));

describe('docs/custom-tools.md', () => {
  it.each([
    ['yaml', 'examples/custom-tools/.opencode/tools/query_service_status.yaml'],
    ['sh', 'examples/custom-tools/.opencode/tools/service-status.sh'],
    ['ts', 'examples/custom-tools/.opencode/plugins/block-env.ts'],
    ['js', 'examples/runtime-api.mjs'],
  ])('shows %s %s exactly as the file is', (lang, file) => {
    expect(section).toContain(`\`\`\`${lang}\n${readFileSync(join(ROOT, file), 'utf8')}\`\`\``);
  });
});
