/**
 * The profiles dialog (alt+p): "no profile" first, each profile with its coder model or
 * "key missing", the active one marked; the selected one's description and problems under the list.
 */
import { describe, expect, it, vi } from 'vitest';
import { ProfilesDialog } from '../../src/tui/dialogs/ProfilesDialog.js';
import { dialogPerTest, KEYS } from '../support/render-dialog.js';

const showDialog = dialogPerTest();

const PROFILES = [
  { name: 'local', coderModel: 'local/qwen3-coder', problems: [] },
  {
    name: 'work',
    description: 'Anthropic, billed to work',
    coderModel: 'anthropic/claude-sonnet-5-5',
    problems: ['anthropic: WORK_ANTHROPIC_KEY is not set'],
  },
];

async function show(active: string | undefined, onSelect = vi.fn(), onClose = vi.fn()) {
  const { press, frame } = await showDialog(
    <ProfilesDialog profiles={PROFILES} active={active} onSelect={onSelect} onClose={onClose} width={80} height={24} />,
  );
  return { press, frame, onSelect, onClose };
}

describe('profiles dialog', () => {
  it('lists no profile first, then each profile with its model or a missing key, the active one marked', async () => {
    const d = await show('local');
    const rows = d.frame().split('\n');
    expect(rows[0]).toHaveLength(56);
    expect(d.frame()).toContain('Select Profile');
    expect(rows.find((r) => r.includes('(no profile)'))).toMatch(/│ {3}\(no profile\) +the files' own settings │/);
    expect(rows.find((r) => r.includes('local'))).toMatch(/│ ✓ local +local\/qwen3-coder │/);
    expect(rows.find((r) => r.includes(' work'))).toMatch(/│ {3}work +key missing │/);
  });

  it("shows the selected profile's description and what is missing, and enter chooses it", async () => {
    const d = await show('local');
    expect(d.frame()).not.toContain('WORK_ANTHROPIC_KEY');
    await d.press(KEYS.down);
    expect(d.frame()).toContain('Anthropic, billed to work');
    expect(d.frame()).toContain('anthropic: WORK_ANTHROPIC_KEY is not set');
    await d.press(KEYS.enter);
    expect(d.onSelect.mock.calls).toEqual([['work']]);
  });

  it('"no profile" chooses undefined; esc closes without choosing', async () => {
    const d = await show('work');
    await d.press(KEYS.up, KEYS.up, KEYS.enter);
    expect(d.onSelect.mock.calls).toEqual([[undefined]]);
    await d.press(KEYS.esc);
    expect(d.onClose).toHaveBeenCalledTimes(1);
  });
});

describe('profiles dialog without profiles', () => {
  it('says where to add them', async () => {
    const { frame } = await showDialog(
      <ProfilesDialog profiles={[]} onSelect={() => {}} onClose={() => {}} width={80} height={24} />,
    );
    expect(frame()).toContain('(no profile)');
    expect(frame()).toContain('No profiles: add them under "profiles" in');
  });
});
