/**
 * Running a declarative tool: what the model gets back from a real program: stdout,
 * stderr under a label, the exit code of a failure, JSON pretty-printed, another encoding converted,
 * control characters removed, output cut with a note, a timeout that kills the whole process tree,
 * and permission asked with the exact argv unless the tool is read-only.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { parseToolFile } from '../../src/custom/declarative-spec.js';
import { createDeclarativeTool } from '../../src/custom/declarative-tool.js';
import type { PermissionAskInput } from '../../src/permission/types.js';
import type { Tool } from '../../src/tools/tool.js';
import { runTool, toolContext } from '../support/tool-context.js';

/** A tool running `node -e <code>` with the given extra fields. */
function nodeTool(dir: string, code: string, extra: Record<string, unknown> = {}): Tool {
  const parsed = parseToolFile(
    JSON.stringify({
      name: 'probe',
      description: 'A probe.',
      parameters: { type: 'object', properties: { n: { type: 'integer', description: 'a count' } } },
      command: [process.execPath, '-e', code, '{{n}}'],
      readOnly: true,
      ...extra,
    }),
    join(dir, 'probe.json'),
    'json',
  );
  expect(parsed.errors).toEqual([]);
  return createDeclarativeTool(parsed.tools[0]!, {
    projectDir: dir,
    env: { ...process.env, MONITOR_URL: 'http://monitor.test' },
  });
}

const project = () => mkdtempSync(join(tmpdir(), 'opencode-decl-'));

describe('declarative tool results', () => {
  it('gives stdout, then stderr under a label', async () => {
    const dir = project();
    const result = await runTool(
      nodeTool(dir, "console.log('up'); console.error('slow replica')"),
      {},
      toolContext(dir),
    );
    expect(result).toMatchObject({ output: 'up\nstderr:\nslow replica', isError: false });
  });

  it('makes a non-zero exit an error result with the code', async () => {
    const dir = project();
    const result = await runTool(nodeTool(dir, "console.log('partial'); process.exit(3)"), {}, toolContext(dir));
    expect(result).toMatchObject({ output: 'partial\nprobe failed with exit code 3', isError: true });
  });

  it('pretty-prints JSON output with outputFormat json', async () => {
    const dir = project();
    const result = await runTool(
      nodeTool(dir, 'process.stdout.write(\'{"a":1,"b":[2]}\')', { outputFormat: 'json' }),
      {},
      toolContext(dir),
    );
    expect(result.output).toBe('{\n  "a": 1,\n  "b": [\n    2\n  ]\n}');
  });

  it('converts GBK output to UTF-8 as the file tools detect it', async () => {
    const dir = project();
    const text = '服务状态：正常。数据库连接池使用率百分之四十，缓存命中率良好，没有发现错误日志。';
    writeFileSync(join(dir, 'gbk.bin'), iconv.encode(text, 'gbk'));
    const result = await runTool(
      nodeTool(dir, "process.stdout.write(require('fs').readFileSync('gbk.bin'))"),
      {},
      toolContext(dir),
    );
    expect(result.output).toBe(text);
  });

  it('removes control characters and colour codes, keeping tabs and newlines', async () => {
    const dir = project();
    const result = await runTool(
      nodeTool(dir, "process.stdout.write('\\u001b[31mred\\u001b[0m\\tcol\\u0007\\u0000\\nnext\\r\\n')"),
      {},
      toolContext(dir),
    );
    expect(result.output).toBe('red\tcol\nnext');
  });

  it('cuts output to maxOutputLines keeping head and tail, with the note', async () => {
    const dir = project();
    const tool = nodeTool(dir, "for (let i = 1; i <= 500; i++) console.log('row ' + i)", { maxOutputLines: 20 });
    const result = await runTool(tool, {}, toolContext(dir));
    const lines = result.output.split('\n');
    expect(lines).toHaveLength(21);
    expect(lines.slice(0, 10)).toEqual(Array.from({ length: 10 }, (_, i) => `row ${i + 1}`));
    expect(lines[10]).toBe('… 480 of 500 lines cut; ask for a narrower query');
    expect(lines.slice(11)).toEqual(Array.from({ length: 10 }, (_, i) => `row ${491 + i}`));
    expect(result.truncated).toBe(true);
  });

  it('cuts output to 30,000 characters by default', async () => {
    const dir = project();
    const tool = nodeTool(
      dir,
      "for (let i = 0; i < 1000; i++) console.log(String(i).padStart(4, '0') + 'x'.repeat(95))",
    );
    const result = await runTool(tool, {}, toolContext(dir));
    expect(result.output.length).toBeLessThanOrEqual(30_000 + 60);
    expect(result.output).toContain('\n… 700 of 1000 lines cut; ask for a narrower query\n');
    expect(result.output.startsWith('0000x')).toBe(true);
    expect(result.output.endsWith(`0999${'x'.repeat(95)}`)).toBe(true);
  });

  it('kills the whole process tree on timeout', async () => {
    const dir = project();
    const marker = join(dir, 'grandchild-survived');
    // the child starts a grandchild that would write the marker after 1.5 s, then waits forever
    const code = `require('child_process').spawn(process.execPath, ['-e', "setTimeout(() => require('fs').writeFileSync('${marker}', 'x'), 1500)"], { stdio: 'ignore' }); setInterval(() => {}, 1000)`;
    const result = await runTool(nodeTool(dir, code, { timeout: 300 }), {}, toolContext(dir));
    expect(result).toMatchObject({
      output: 'probe timed out after 300 ms; its process group was killed',
      isError: true,
      outcome: 'timeout',
    });
    await new Promise((r) => setTimeout(r, 2000));
    expect(existsSync(marker)).toBe(false);
  });

  it('esc (the signal of the run) kills the whole process tree at once', async () => {
    const dir = project();
    const marker = join(dir, 'grandchild-survived');
    const code = `require('child_process').spawn(process.execPath, ['-e', "setTimeout(() => require('fs').writeFileSync('${marker}', 'x'), 1500)"], { stdio: 'ignore' }); setInterval(() => {}, 1000)`;
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const result = await runTool(nodeTool(dir, code), {}, toolContext(dir, { signal: controller.signal }));
    expect(result).toMatchObject({ output: 'Tool execution canceled by user', isError: true });
    await new Promise((r) => setTimeout(r, 2000));
    expect(existsSync(marker)).toBe(false);
  });

  it('takes ${VAR} in env from our environment and runs in cwd relative to the project', async () => {
    const dir = project();
    const tool = nodeTool(dir, 'console.log(process.env.API + " " + process.cwd())', {
      env: { API: '${MONITOR_URL}/v1' },
      cwd: '.',
    });
    const result = await runTool(tool, {}, toolContext(dir));
    expect(result.output).toBe(`http://monitor.test/v1 ${dir}`);
  });

  it('gives the program no provider key (as the bash tool), unless env names one on purpose', async () => {
    const dir = project();
    const parsed = parseToolFile(
      JSON.stringify({
        name: 'keys',
        description: 'd',
        command: [
          process.execPath,
          '-e',
          'console.log(String(process.env.ANTHROPIC_API_KEY) + " " + process.env.MONITOR_URL + " " + process.env.EXPLICIT)',
        ],
        readOnly: true,
        env: { EXPLICIT: '${OPENAI_API_KEY}' },
      }),
      join(dir, 'k.json'),
      'json',
    );
    const tool = createDeclarativeTool(parsed.tools[0]!, {
      projectDir: dir,
      env: { PATH: process.env.PATH, ANTHROPIC_API_KEY: 'sk-ant-x', OPENAI_API_KEY: 'sk-o', MONITOR_URL: 'http://m' },
    });
    expect((await runTool(tool, {}, toolContext(dir))).output).toBe('undefined http://m sk-o');
  });

  it('asks permission with the exact argv unless readOnly', async () => {
    const dir = project();
    const asked: PermissionAskInput[] = [];
    const ctx = { ...toolContext(dir), askPermission: async (input: PermissionAskInput) => void asked.push(input) };
    await runTool(nodeTool(dir, 'console.log(1)', { readOnly: false }), { n: 7 }, ctx);
    expect(asked).toEqual([
      {
        action: 'execute',
        description: `Run probe: ${process.execPath} -e 'console.log(1)' 7`,
        params: {
          command: `${process.execPath} -e 'console.log(1)' 7`,
          argv: [process.execPath, '-e', 'console.log(1)', '7'],
          tool: 'probe',
        },
        path: dir,
      },
    ]);
    await runTool(nodeTool(dir, 'console.log(1)'), { n: 7 }, ctx);
    expect(asked).toHaveLength(1);
  });

  it('says which required parameter is missing', async () => {
    const dir = project();
    const parsed = parseToolFile(
      'name: status\ndescription: d\nparameters:\n  type: object\n  properties:\n    service: { type: string, description: s }\n  required: [service]\ncommand: [echo, "{{service}}"]\n',
      join(dir, 't.yaml'),
      'yaml',
    );
    const result = await runTool(createDeclarativeTool(parsed.tools[0]!, { projectDir: dir }), {}, toolContext(dir));
    expect(result).toMatchObject({ output: 'Invalid input for status: service is required', isError: true });
  });
});
