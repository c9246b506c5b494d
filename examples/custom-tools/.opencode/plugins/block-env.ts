// A plugin: refuses every attempt of the file tools to read or change a .env file.
// (`cat .env` is the bash tool's business: deny it with a rule, see Permissions.)
import { definePlugin } from 'opencode/plugin';

const FILE_TOOLS = ['view', 'edit', 'write'];
const isEnvFile = (path: unknown) => typeof path === 'string' && /(^|\/)\.env(\.[\w-]+)?$/.test(path);
// a patch names its files in `*** Update File: PATH` (and Add, Delete, Move to) lines
const patchedFiles = (text: unknown) =>
  typeof text === 'string' ? [...text.matchAll(/^\*\*\* (?:Add|Update|Delete) File: (.+)$|^\*\*\* Move to: (.+)$/gm)].map((m) => (m[1] ?? m[2])!.trim()) : [];

export default definePlugin(async ({ log }) => {
  log.info('guarding .env files');
  return {
    hooks: {
      'tool.execute.before': async (call) => {
        const paths = FILE_TOOLS.includes(call.tool) ? [call.args.file_path] : call.tool === 'patch' ? patchedFiles(call.args.patch_text) : [];
        const envFile = paths.find(isEnvFile);
        if (envFile) {
          return { block: `${envFile} holds secrets: .env files are not read or changed here. Ask the person for the value you need.` };
        }
      },
    },
  };
});
