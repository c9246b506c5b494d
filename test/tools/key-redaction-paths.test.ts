/**
 * Keys we hold never reach the stored messages or the provider through a tool result, whatever the
 * tool and wherever in the result, found by trying to break the first fix:
 * every result goes through the one tool-call path (runToolCalls), so these tests run it with a
 * real bash shell, a custom declarative tool and a tool shaped as MCP tools are.
 *
 * The bug this caught: output is cut in many places (the middle of a long output, the live tail,
 * a custom tool's cap), and a cut through a key left all of it but a few characters in the text,
 * which the exact-value match no longer found. Pieces of 16 characters or more are now hidden too.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ToolCallPart } from '../../src/message.js';
import { runToolCalls } from '../../src/agent/tool-calls.js';
import { createDeclarativeTool } from '../../src/custom/declarative-tool.js';
import { bashTool } from '../../src/tools/bash.js';
import {
  forgetSecrets,
  REDACTED,
  redactSecrets,
  redactSecretsDeep,
  rememberSecrets,
  SECRET_PIECE_CHARS,
} from '../../src/tools/redact.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import { MAX_OUTPUT_CHARS, type Tool, type ToolContext } from '../../src/tools/tool.js';
import { truncateOutput } from '../../src/tools/truncate.js';
import { recordingContext, tempDir, type RecordingContext } from '../support/recording-context.js';

const KEY = 'sk-ant-api03-Zq7Xw2Lp9Rt4Vn6Bm8Kc1Hj3Gf5Ds0Ae';
let tmp: { dir: string; remove(): void };
let rec: RecordingContext | undefined;

beforeEach(() => {
  tmp = tempDir('opencode-key-paths-');
  rememberSecrets([KEY]);
});
afterEach(() => {
  rec?.close();
  rec = undefined;
  tmp.remove();
  forgetSecrets();
});

describe('redactSecrets: the exact value and pieces of it', () => {
  const cut = KEY.length - 3;
  it.each([
    ['inside longer text', `Authorization: Bearer ${KEY}; ok`, `Authorization: Bearer ${REDACTED}; ok`],
    ['glued to words on both sides', `x${KEY}y`, `x${REDACTED}y`],
    ['twice on one line', `${KEY},${KEY}`, `${REDACTED},${REDACTED}`],
    [
      'a cut after all but 3 characters',
      `token=${KEY.slice(0, cut)}\n... [4 lines truncated] ...`,
      `token=${REDACTED}\n... [4 lines truncated] ...`,
    ],
    ['a cut before the last 30 characters', `...\n${KEY.slice(-30)} rest`, `...\n${REDACTED} rest`],
    ['a piece from the middle', `[${KEY.slice(10, 10 + SECRET_PIECE_CHARS)}]`, `[${REDACTED}]`],
    [
      'a piece one character too short stays',
      `[${KEY.slice(20, 20 + SECRET_PIECE_CHARS - 1)}]`,
      `[${KEY.slice(20, 20 + SECRET_PIECE_CHARS - 1)}]`,
    ],
    [
      'the public prefix keys share stays',
      'export ANTHROPIC_API_KEY=sk-ant-api03-...',
      'export ANTHROPIC_API_KEY=sk-ant-api03-...',
    ],
    ['text without it is unchanged', 'nothing here\n', 'nothing here\n'],
  ])('%s', (_name, text, expected) => {
    expect(redactSecrets(text)).toBe(expected);
  });

  it('agrees with a plain window-by-window search on 500 random texts holding pieces of the key', () => {
    // the rolling hash is an optimisation only: same result as comparing every window's text
    const naive = (text: string) => {
      let out = text.split(KEY).join(REDACTED);
      const wanted = new Set(
        Array.from({ length: KEY.length - SECRET_PIECE_CHARS + 1 }, (_, i) => KEY.slice(i, i + SECRET_PIECE_CHARS)),
      );
      let result = '';
      let i = 0;
      while (i < out.length) {
        if (i + SECRET_PIECE_CHARS <= out.length && wanted.has(out.slice(i, i + SECRET_PIECE_CHARS))) {
          let end = i + SECRET_PIECE_CHARS;
          while (end < out.length && wanted.has(out.slice(end - SECRET_PIECE_CHARS + 1, end + 1))) end++;
          result += REDACTED;
          i = end;
        } else result += out[i++];
      }
      return result;
    };
    let seed = 7;
    const random = (n: number) => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n;
    for (let round = 0; round < 500; round++) {
      let text = '';
      for (let part = 0; part < 6; part++) {
        const from = random(KEY.length);
        text += random(2)
          ? KEY.slice(from, from + 10 + random(30))
          : 'é xyz\n\u{1F600}'.slice(0, random(9)) + 'abc'.repeat(random(5));
      }
      expect(redactSecrets(text)).toBe(naive(text));
    }
  });

  it('the output cut going through the key leaves no piece of it', () => {
    const text = `${'a'.repeat(MAX_OUTPUT_CHARS / 2 - 20)}${KEY}${'b'.repeat(MAX_OUTPUT_CHARS)}`;
    const cutText = truncateOutput(text, 'marker', { maxOutputChars: MAX_OUTPUT_CHARS }).text;
    expect(cutText).toContain(KEY.slice(0, 20)); // the cut kept 20 characters of it
    expect(redactSecrets(cutText)).toBe(
      `${'a'.repeat(MAX_OUTPUT_CHARS / 2 - 20)}${REDACTED}\n\n... [1 lines truncated] ...\n\n${'b'.repeat(MAX_OUTPUT_CHARS / 2)}`,
    );
  });

  it('metadata: values, nested values and object keys', () => {
    expect(redactSecretsDeep({ a: [`k=${KEY}`], [KEY]: { n: 1, s: KEY.slice(2) } })).toEqual({
      a: [`k=${REDACTED}`],
      [REDACTED]: { n: 1, s: REDACTED },
    });
  });
});

const call = (id: string, name: string, input: Record<string, unknown>): ToolCallPart => ({
  type: 'tool_call',
  id,
  name,
  input: JSON.stringify(input),
  finished: true,
});

/** Runs the calls through the one path every result takes before it is stored or sent. */
async function runCalls(tools: Tool[], calls: ToolCallPart[], ctx: ToolContext) {
  const registry = new ToolRegistry();
  for (const tool of tools) registry.register(tool, tool === bashTool ? 'builtin' : 'mcp');
  const outcome = await runToolCalls({
    calls,
    registry,
    signal: new AbortController().signal,
    contextFor: (c) => ({ ...ctx, toolCallId: c.id }),
  });
  return outcome.results;
}

describe('every tool result on the way to the database and the provider', () => {
  it('bash: the key in longer text, in a cut long output, and in the live tail', async () => {
    rec = recordingContext({ cwd: tmp.dir });
    const half = MAX_OUTPUT_CHARS / 2;
    const results = await runCalls(
      [bashTool],
      [
        call('c1', 'bash', { command: `echo "auth=${KEY}&next=1"` }),
        // the middle cut falls 10 characters into the key
        call('c2', 'bash', {
          command: `head -c ${half - 10} /dev/zero | tr '\\0' a; echo -n ${KEY}; head -c ${half * 2} /dev/zero | tr '\\0' b`,
        }),
        call('c3', 'bash', { command: `head -c 50000 /dev/zero | tr '\\0' c; echo ${KEY}x; sleep 0.4; echo end` }),
      ],
      rec.ctx,
    );
    expect(results[0]!.content).toBe(`auth=${REDACTED}&next=1`);
    expect(results[1]!.content).not.toContain(KEY.slice(0, SECRET_PIECE_CHARS));
    expect(results[1]!.content).not.toContain(KEY.slice(-SECRET_PIECE_CHARS));
    for (const shown of rec.progress) expect(shown).not.toMatch(/Zq7Xw2Lp9Rt4Vn6B|Vn6Bm8Kc1Hj3Gf5D/);
    expect(rec.progress.some((p) => p.includes(`${REDACTED}x`))).toBe(true);
    expect(JSON.stringify(results)).not.toContain(KEY.slice(13, 13 + SECRET_PIECE_CHARS));
  });

  it('an MCP-shaped tool: output, metadata and a thrown error', async () => {
    const mcp = (
      name: string,
      run: () => Promise<never> | Promise<{ output: string; isError: boolean; metadata?: Record<string, unknown> }>,
    ): Tool => ({
      name,
      description: name,
      inputSchema: { type: 'object', properties: {}, required: [] },
      readOnly: true,
      run,
    });
    const results = await runCalls(
      [
        mcp('svc_read', async () => ({
          output: `{"config":{"key":"${KEY}"}}`,
          isError: false,
          metadata: { raw: { headers: [`x-api-key: ${KEY}`] } },
        })),
        mcp('svc_fail', async () => {
          throw new Error(`request with key ${KEY} refused`);
        }),
      ],
      [call('c1', 'svc_read', {}), call('c2', 'svc_fail', {})],
      recordingContext({ cwd: tmp.dir }).ctx,
    );
    expect(results[0]!.content).toBe(`{"config":{"key":"${REDACTED}"}}`);
    expect(results[0]!.metadata).toEqual({ raw: { headers: [`x-api-key: ${REDACTED}`] } });
    expect(results[1]!.content).toContain(`request with key ${REDACTED} refused`);
    expect(JSON.stringify(results)).not.toContain(KEY.slice(13, 13 + SECRET_PIECE_CHARS));
  });

  it('a custom declarative tool: printed whole and cut by its own output cap', async () => {
    const spec = (name: string, command: string[], maxOutputChars?: number) => ({
      name,
      description: name,
      parameters: { type: 'object' as const, properties: {}, required: [] },
      command,
      env: {},
      timeoutMs: 10_000,
      maxOutputChars,
      readOnly: true,
      outputFormat: 'text' as const,
    });
    const whole = createDeclarativeTool(spec('show_whole', ['sh', '-c', `echo "k=${KEY}"`]), { projectDir: tmp.dir });
    const cut = createDeclarativeTool(
      spec('show_cut', ['sh', '-c', `printf 'a%.0s' $(seq 1 70); echo -n "${KEY}"; printf 'b%.0s' $(seq 1 400)`], 200),
      { projectDir: tmp.dir },
    );
    rec = recordingContext({ cwd: tmp.dir });
    const results = await runCalls([whole, cut], [call('c1', 'show_whole', {}), call('c2', 'show_cut', {})], rec.ctx);
    expect(results[0]!.content).toBe(`k=${REDACTED}`);
    expect(JSON.stringify(results)).not.toContain(KEY.slice(13, 13 + SECRET_PIECE_CHARS));
    expect(results[1]!.content.startsWith(`${'a'.repeat(70)}${REDACTED}`)).toBe(true); // the cap kept 30 characters of it
  });
});
