/**
 * `opencode schema`: the JSON Schema (draft 2020-12) of `.opencode.json`, with the schema of a theme
 * file (`.opencode/themes/NAME.json`) under `$defs.themeFile`, so one document describes every file
 * opencode reads from a project; `--theme` prints the theme file's schema alone, for a theme file's
 * `$schema`.
 */
import { configJsonSchema } from '../config/json-schema.js';
import { themeFileJsonSchema } from '../tui/theme-file.js';

/** The `$defs` key that holds the theme file schema in the config schema. */
export const THEME_FILE_DEF = 'themeFile';

/** The schema `opencode schema` prints: the config file's, or with `theme` the theme file's alone. */
export function schemaDocument(theme: boolean): Record<string, unknown> {
  const themeSchema = themeFileJsonSchema();
  if (theme) return themeSchema;
  const config = configJsonSchema();
  // a schema nested under $defs takes no $schema of its own: the document's applies
  const { $schema: _dialect, ...themeFile } = themeSchema;
  const defs = (config.$defs as Record<string, unknown> | undefined) ?? {};
  return { ...config, $defs: { ...defs, [THEME_FILE_DEF]: themeFile } };
}
