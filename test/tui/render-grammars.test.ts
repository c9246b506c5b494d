/**
 * The code grammars load one at a time (src/tui/render/grammars.ts): the table holds
 * exactly lowlight's `common` set, and loading registers each with a yield after every one.
 */
import { common } from 'lowlight';
import { describe, expect, it } from 'vitest';
import { COMMON_GRAMMARS, loadCommonGrammars } from '../../src/tui/render/grammars.js';

describe('grammars loaded one at a time', () => {
  it('the table names the same grammars as lowlight/lib/common.js, each module the grammar itself', async () => {
    expect(Object.keys(COMMON_GRAMMARS).sort()).toEqual(Object.keys(common).sort());
    for (const [name, load] of Object.entries(COMMON_GRAMMARS)) expect((await load()).default, name).toBe(common[name]);
  });

  it('registers every grammar, yielding after each', async () => {
    let yields = 0;
    const lowlight = await loadCommonGrammars(async () => void yields++);
    expect(yields).toBe(Object.keys(common).length);
    expect(lowlight.listLanguages().sort()).toEqual(Object.keys(common).sort());
    expect(lowlight.registered('ts')).toBe(true);
  });
});
