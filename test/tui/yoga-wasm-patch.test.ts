/**
 * The build's patches of Yoga's WebAssembly loader (scripts/yoga-wasm-patch.mjs): Node's
 * native base64 decode gives the very bytes of the loader's own atob-and-copy loop, decoding the
 * WebAssembly embedded in the installed yoga-layout; and Yoga bundled with the patches (as
 * scripts/build.mjs bundles it, here as an ES module) lays out a tree as the unpatched one does.
 * The bundled TUI itself (dist/, with these patches and the synchronous instantiation of build.mjs)
 * lays out its screens in the tmux tests, e.g. test/e2e/tui-chat.test.ts (the prompt, the answer
 * and its footer in order down the screen) and test/e2e/tui-permission.test.ts (the sessions
 * dialog left of the sidebar).
 */
import { build, type Plugin } from 'esbuild';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error a plain .mjs build script without types
import { YOGA_WASM, YOGA_WASM_FILE, YOGA_WASM_PATCHES } from '../../scripts/yoga-wasm-patch.mjs';

interface Patch {
  from: string;
  to: string;
}
type YogaModule = typeof import('yoga-layout');

const patches = YOGA_WASM_PATCHES as Patch[];
const [, decodePatch] = patches;
const loaderSource = readFileSync(YOGA_WASM_FILE as string, 'utf8');
/** The data: URL the loader decodes (its variable `H`). */
const dataUrls = [...loaderSource.matchAll(/H="(data:application\/octet-stream;base64,[A-Za-z0-9+/=]+)"/g)].map(
  (m) => m[1]!,
);

/**
 * Runs a decode text of the loader (`a` is the data: URL, the result is `d`) as the loader runs it:
 * `xa` is the loader's atob (`"function"==typeof atob?atob:…`: Node has atob).
 */
function decodeWith(code: string, dataUrl: string): Uint8Array<ArrayBuffer> {
  return new Function('a', 'xa', 'Buffer', `${code};return d`)(dataUrl, atob, Buffer) as Uint8Array<ArrayBuffer>;
}

let dir: string;

/** Bundles yoga-layout with `list` applied to its loader (esbuild, as scripts/build.mjs); returns the module. */
async function bundleYoga(name: string, list: Patch[]): Promise<YogaModule> {
  const plugin: Plugin = {
    name: 'patch-yoga',
    setup(b) {
      b.onLoad({ filter: YOGA_WASM as RegExp }, (args) => {
        let source = readFileSync(args.path, 'utf8');
        for (const patch of list) source = source.replace(patch.from, patch.to);
        return { contents: source, loader: 'js' };
      });
    },
  };
  const result = await build({
    entryPoints: [createRequire(import.meta.url).resolve('yoga-layout')],
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    write: false,
    plugins: [plugin],
  });
  const file = join(dir, `${name}.mjs`);
  writeFileSync(file, result.outputFiles[0]!.text);
  return (await import(pathToFileURL(file).href)) as YogaModule;
}

/**
 * A 100×20 row with padding 2: a growing child, a 30-wide one, and a wrapped column of two 10×3
 * boxes; the computed `left top width height` of each node.
 */
function layOut(yoga: YogaModule): string[] {
  const { default: Yoga, Direction, Edge, FlexDirection } = yoga;
  const root = Yoga.Node.create();
  root.setWidth(100);
  root.setHeight(20);
  root.setFlexDirection(FlexDirection.Row);
  root.setPadding(Edge.All, 2);
  const grow = Yoga.Node.create();
  grow.setFlexGrow(1);
  const fixed = Yoga.Node.create();
  fixed.setWidth(30);
  fixed.setFlexDirection(FlexDirection.Column);
  const boxes = [Yoga.Node.create(), Yoga.Node.create()];
  for (const [i, box] of boxes.entries()) {
    box.setWidth(10);
    box.setHeight(3);
    fixed.insertChild(box, i);
  }
  root.insertChild(grow, 0);
  root.insertChild(fixed, 1);
  root.calculateLayout(undefined, undefined, Direction.LTR);
  const lines = [root, grow, fixed, ...boxes].map((node) => {
    const { left, top, width, height } = node.getComputedLayout();
    return `${left} ${top} ${width} ${height}`;
  });
  root.freeRecursive();
  return lines;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'opencode-yoga-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("Yoga's WebAssembly decoded by Node's native base64", () => {
  it('patches texts found once each in the installed loader, which embeds one data: URL', () => {
    expect((YOGA_WASM as RegExp).test(YOGA_WASM_FILE as string)).toBe(true);
    for (const patch of patches) expect(loaderSource.split(patch.from).length - 1, patch.from).toBe(1);
    expect(dataUrls).toHaveLength(1);
    // the loader cuts `data:application/octet-stream;base64,` off with slice(37)
    expect('data:application/octet-stream;base64,'.length).toBe(37);
  });

  it('gives the bytes of the atob loop, byte for byte: a valid WebAssembly module in a plain Uint8Array', () => {
    const original = decodeWith(decodePatch!.from, dataUrls[0]!);
    const native = decodeWith(decodePatch!.to, dataUrls[0]!);

    const base64 = dataUrls[0]!.slice(37);
    expect(original.length).toBe((base64.length / 4) * 3 - base64.match(/=*$/)![0].length);
    expect(native.length).toBe(original.length);
    expect(Buffer.compare(Buffer.from(native.buffer, native.byteOffset, native.length), Buffer.from(original))).toBe(0);
    expect(Object.getPrototypeOf(native)).toBe(Uint8Array.prototype);
    // its own buffer, not a slice of Buffer's shared pool
    expect(native.byteOffset).toBe(0);
    expect(native.buffer.byteLength).toBe(native.length);
    expect([...native.subarray(0, 4)]).toEqual([0x00, 0x61, 0x73, 0x6d]); // "\0asm"
    expect(WebAssembly.validate(native)).toBe(true);
  });

  it('Yoga bundled with the patches lays out a tree exactly as the unpatched Yoga', async () => {
    const expected = ['0 0 100 20', '2 2 66 16', '68 2 30 16', '0 0 10 3', '0 3 10 3'];
    expect(layOut(await bundleYoga('original', []))).toEqual(expected);
    expect(layOut(await bundleYoga('patched', patches))).toEqual(expected);
  });
});
