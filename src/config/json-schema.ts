/**
 * The JSON Schema of `.opencode.json`, generated from the zod schema, printed by `opencode schema` so
 * editors can complete and check the file (the original shipped a hand-kept `opencode-schema.json`).
 */
import { z } from 'zod';
import { configSchema } from './schema.js';

/**
 * Returns the JSON Schema (draft 2020-12) of the config file as written (input side: every key optional,
 * defaults shown as `default`). Objects allow unknown keys, because the loader only warns about them;
 * every key has a `description`.
 */
export function configJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(configSchema, {
    io: 'input',
    target: 'draft-2020-12',
    override: (ctx) => {
      // Strict objects emit `additionalProperties: false`; an editor would then flag keys we merely warn about.
      if (ctx.jsonSchema.additionalProperties === false) delete ctx.jsonSchema.additionalProperties;
    },
  }) as Record<string, unknown>;
  return { ...schema, title: 'OpenCode configuration' };
}
