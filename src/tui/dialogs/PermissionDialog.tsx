/**
 * "Permission Required": a tool asks to run (the original's dialog). Shows the tool, the path, the
 * description, what the call does (bash: the command highlighted; edit/write/patch: the diff; fetch:
 * the URL; MCP and other tools: the parameters as JSON), why it asks, and what "allow for session"
 * would grant. Answers with a {@link PermissionDecision}.
 *
 * Keys (the keymap's, defaults shown): `a` allow, `s` allow for session, `p` always allow in this
 * project, `o` run outside the sandbox (only when offered), `d` or esc deny (esc is how
 * people say no); ←/→/tab/shift+tab move between
 * the buttons and enter/space press the selected one; ↑↓ j/k pgup/pgdown home/end scroll the
 * content. Every button names its key, and the four fit on one row at 80 columns.
 * ctrl+c is not the dialog's: the dialog host opens the quit question over it.
 *
 * Only answers that grant what they say are offered (`permissionChoices`): when
 * `request.scopes` is empty nothing broader than this call can be granted (a write outside the
 * project, a command that could not be analysed), the dialog says so and offers Allow and Deny.
 * "Run outside the sandbox" is offered only for a request that allows it (`sandboxEscape`: the
 * command cannot work inside the sandbox, or just failed because of it), with a line that says what
 * it means: the command runs with the person's full access.
 *
 * Typeahead guard: a key that would grant (`a`, `s`, `p`, or enter/space on a granting button) is not
 * taken while it continues a typing run (text keys less than {@link TYPEAHEAD_GAP_MS} apart, not
 * counting time the app was too busy to read keys) that began before the dialog appeared — the person was
 * writing their next prompt and the `a` of "and" is not an answer (Claude Code users met exactly
 * this). The dialog then says so in one line, and the next granting press after a pause of
 * {@link TYPEAHEAD_GAP_MS} is taken. Denying (`d`, esc) is always taken at once.
 */
import { Box, Text } from 'ink';
import { useRef, useState } from 'react';
import { permissionChoices } from '../../permission/choices.js';
import type { PermissionDecision, PermissionRequest } from '../../permission/types.js';
import {
  DialogFrame,
  FRAME_HORIZONTAL_COLUMNS,
  FRAME_VERTICAL_ROWS,
  clamp,
  useScreenSize,
} from '../components/DialogFrame.js';
import { LAYER, useKeyClock, useKeys } from '../input/InputProvider.js';
import type { ActionName } from '../keybindings.js';
import type { Keymap } from '../keymap.js';
import { useKeymap } from '../keymap-context.js';
import { relativeToProject } from '../format.js';
import { renderDiff } from '../render/diff.js';
import { highlightCode } from '../render/highlight.js';
import { fitLine, wrapText } from '../render/text-width.js';
import type { Theme } from '../theme.js';
import { useTheme } from '../theme-context.js';
import { buttonRows, Buttons, type Button } from './Buttons.js';
import type { DialogSizeProps } from './ListDialog.js';

export interface PermissionDialogProps extends DialogSizeProps {
  request: PermissionRequest;
  /** other requests waiting behind this one: shown as `(+N more waiting)` */
  queued: number;
  /** the project directory: the path is shown relative to it */
  cwd: string;
  /** called once per request */
  onDecide(decision: PermissionDecision): void;
}

/**
 * Each answer's button text, the action whose key it names (`Allow for session (s)`), and the verb
 * the typeahead note uses ("press s again to allow for session").
 */
const BUTTON_OF: Record<PermissionDecision, { label: string; action: ActionName; verb: string }> = {
  allow: { label: 'Allow', action: 'permission.allow', verb: 'allow' },
  allow_session: { label: 'Allow for session', action: 'permission.allow_session', verb: 'allow for session' },
  allow_always: { label: 'Always in project', action: 'permission.allow_always', verb: 'always allow in project' },
  allow_outside_sandbox: {
    label: 'Run outside sandbox',
    action: 'permission.allow_outside_sandbox',
    verb: 'run outside the sandbox',
  },
  deny: { label: 'Deny', action: 'permission.deny', verb: 'deny' },
};

/**
 * Two key presses less than this apart (ms) are one typing run. A granting key that continues a run
 * begun before the dialog appeared is typeahead, not an answer: people type at roughly 50–250 ms a
 * key, while seeing a new dialog, reading it and deciding takes well over 300 ms. A longer value
 * would make a deliberate quick answer wait; a shorter one would let a slow typist's next letter
 * through. (The danger is the one Claude Code users reported: a dialog that pops up mid-sentence
 * takes the next letter as "allow".)
 */
export const TYPEAHEAD_GAP_MS = 300;

/**
 * Whether a granting key is held back as typeahead. `runFromBefore`: the keys since the dialog
 * appeared have all come less than {@link TYPEAHEAD_GAP_MS} apart (true until a gap is seen);
 * `gapMs`: the time since the previous key (Infinity when nothing was typed before). Returns whether
 * to hold the key and whether the run still goes on after it.
 *
 * | runFromBefore | gapMs  | held | example                                             |
 * |---------------|--------|------|-----------------------------------------------------|
 * | true          | 120    | yes  | the `a` of "hello and", the dialog came after "hello " |
 * | true          | 450    | no   | typing stopped, the person read the dialog, pressed `a` |
 * | true          | ∞      | no   | nothing typed before the dialog: `a` answers at once  |
 * | false         | 80     | no   | after one pause the run is over: quick presses answer  |
 */
export function typeaheadHold(runFromBefore: boolean, gapMs: number): { held: boolean; runGoesOn: boolean } {
  const runGoesOn = runFromBefore && gapMs < TYPEAHEAD_GAP_MS;
  return { held: runGoesOn, runGoesOn };
}

/** The one-line note shown when a granting key was held: `press a again to allow`. */
export function typeaheadNote(key: string | undefined, decision: PermissionDecision): string {
  const verb = BUTTON_OF[decision].verb;
  return key === undefined
    ? `Typing went on as this appeared: answer again to ${verb}`
    : `Typing went on as this appeared: press ${key} again to ${verb}`;
}

/** The buttons for `choices` with the keys in effect (a button whose action has no key shows none). */
export function permissionButtons(
  choices: readonly PermissionDecision[],
  keymap: Keymap,
): { label: string; decision: PermissionDecision }[] {
  return choices.map((decision) => {
    const { label, action } = BUTTON_OF[decision];
    const key = keymap.hint(action);
    return { label: key === undefined ? label : `${label} (${key})`, decision };
  });
}

/** Most rows the description and the session-scope line take each; the reasons take one row each. */
const MAX_DESCRIPTION_ROWS = 2;
const MAX_SCOPE_ROWS = 2;
const MAX_REASON_ROWS = 3;
/** The content area never gets smaller than this, even on a tiny screen. */
const MIN_CONTENT_ROWS = 3;

/** The permission dialog. Modal: registers on {@link LAYER.dialog} and takes every key. */
export function PermissionDialog({ request, queued, cwd, onDecide, width, height }: PermissionDialogProps) {
  const theme = useTheme();
  const keymap = useKeymap();
  const clock = useKeyClock();
  const screen = useScreenSize(width, height);
  const size = permissionDialogSize(request.toolName, screen.columns, screen.rows);
  const inner = size.width - FRAME_HORIZONTAL_COLUMNS;
  const grantable = request.scopes.length > 0;
  const choices = permissionChoices(request);
  const answers = permissionButtons(choices, keymap);

  // per request: a new request starts at Allow, scrolled to the top, unanswered
  const [state, setState] = useState({ id: request.id, selected: 0, offset: 0 });
  const decided = useRef<string | undefined>(undefined);
  // the typing run the keys continue, per request: set at the request's first key, false once a gap
  // of TYPEAHEAD_GAP_MS is seen
  const typing = useRef<{ id: string | undefined; runFromBefore: boolean }>({ id: undefined, runFromBefore: false });
  const [note, setNote] = useState<{ id: string; text: string } | undefined>(undefined);
  // what the keys so far left: keys that arrive in one read reach the handler before React
  // re-renders, and each must act from where the previous one left the selection
  const latest = useRef(state);
  let { selected, offset } = state;
  if (state.id !== request.id) {
    selected = 0;
    offset = 0;
    setState({ id: request.id, selected, offset });
  }
  if (latest.current.id !== request.id) latest.current = { id: request.id, selected, offset };
  const noteText = note?.id === request.id ? note.text : undefined;

  const description = wrapText(request.description, inner).slice(0, MAX_DESCRIPTION_ROWS);
  const reasons = reasonLines(request.reasons, inner);
  const scope = wrapText(scopeText(request), inner).slice(0, MAX_SCOPE_ROWS);
  const escape = choices.includes('allow_outside_sandbox')
    ? wrapText(escapeText(keymap.hint('permission.allow_outside_sandbox')), inner).slice(0, MAX_SCOPE_ROWS)
    : [];
  const buttons: Button[] = answers.map((b) => ({ label: b.label }));
  const fixedRows =
    FRAME_VERTICAL_ROWS +
    2 /* tool, path */ +
    description.length +
    1 /* blank */ +
    reasons.length +
    scope.length +
    escape.length +
    1 /* blank */ +
    (noteText === undefined ? 0 : 1) +
    buttonRows(buttons, inner);
  const areaRows = Math.max(MIN_CONTENT_ROWS, size.height - fixedRows);
  const content = contentLines(request, inner, theme);
  const scrolls = content.length > areaRows;
  // when it scrolls, two of the area's rows hold the `↑ more` / `↓ more` marks
  const bodyRows = scrolls ? Math.max(1, areaRows - 2) : content.length;
  const maxOffset = Math.max(0, content.length - bodyRows);
  offset = clamp(offset, 0, maxOffset);

  const decide = (decision: PermissionDecision) => {
    if (decided.current === request.id) return;
    // an answer not offered (its key pressed while nothing broader can be granted) does nothing
    if (!choices.includes(decision)) return;
    decided.current = request.id;
    onDecide(decision);
  };
  const update = (next: { selected: number; offset: number }) => {
    latest.current = { id: request.id, ...next };
    setState(latest.current);
  };
  const scrollTo = (next: (at: number) => number) => {
    const at = clamp(latest.current.offset, 0, maxOffset);
    update({ selected: latest.current.selected, offset: clamp(next(at), 0, maxOffset) });
  };
  const select = (next: (at: number) => number) =>
    update({
      selected: (next(latest.current.selected) + answers.length) % answers.length,
      offset: latest.current.offset,
    });

  /** Takes a granting answer unless it is typeahead; then shows the note naming `action`'s key. */
  const grant = (decision: PermissionDecision, action: ActionName, held: boolean) => {
    if (!held) return decide(decision);
    if (decided.current === request.id || !choices.includes(decision)) return;
    setNote({ id: request.id, text: typeaheadNote(keymap.hint(action), decision) });
  };

  useKeys(
    (key) => {
      // a run is text being typed: the enter that sent a prompt, an arrow, a ctrl key end it (the
      // person then waits for the reply; `send a prompt, see the dialog, press a` is an answer)
      if (typing.current.id !== request.id)
        typing.current = { id: request.id, runFromBefore: (clock.lastKey?.text ?? '') !== '' };
      const { held, runGoesOn } = typeaheadHold(typing.current.runFromBefore, clock.typingGapMs());
      typing.current.runFromBefore = runGoesOn;
      if (keymap.matches(key, 'permission.allow')) grant('allow', 'permission.allow', held);
      else if (keymap.matches(key, 'permission.allow_session'))
        grant('allow_session', 'permission.allow_session', held);
      else if (keymap.matches(key, 'permission.allow_always')) grant('allow_always', 'permission.allow_always', held);
      else if (keymap.matches(key, 'permission.allow_outside_sandbox'))
        grant('allow_outside_sandbox', 'permission.allow_outside_sandbox', held);
      else if (keymap.matches(key, 'permission.deny')) decide('deny');
      else if (keymap.matches(key, 'button.next')) select((at) => at + 1);
      else if (keymap.matches(key, 'button.previous')) select((at) => at - 1);
      else if (keymap.matches(key, 'button.press')) {
        const decision = answers[latest.current.selected]!.decision;
        if (decision === 'deny') decide('deny');
        else grant(decision, 'button.press', held);
      } else if (keymap.matches(key, 'permission.scroll_up')) scrollTo((at) => at - 1);
      else if (keymap.matches(key, 'permission.scroll_down')) scrollTo((at) => at + 1);
      else if (keymap.matches(key, 'dialog.page_up')) scrollTo((at) => at - Math.max(1, bodyRows - 1));
      else if (keymap.matches(key, 'dialog.page_down')) scrollTo((at) => at + Math.max(1, bodyRows - 1));
      else if (keymap.matches(key, 'dialog.first')) scrollTo(() => 0);
      else if (keymap.matches(key, 'dialog.last')) scrollTo(() => maxOffset);
      return true;
    },
    { layer: LAYER.dialog },
  );

  const shown = content.slice(offset, offset + bodyRows);
  return (
    <DialogFrame
      title="Permission Required"
      titleRight={queued > 0 ? `(+${queued} more waiting)` : undefined}
      width={size.width}
    >
      <Text wrap="truncate">
        <Text color={theme.textMuted}>Tool: </Text>
        <Text color={theme.accent}>{request.toolName}</Text>
      </Text>
      <Text wrap="truncate">
        <Text color={theme.textMuted}>Path: </Text>
        <Text color={theme.text}>{fitLine(displayPath(request.path, cwd), inner - 6)}</Text>
      </Text>
      {description.map((line, i) => (
        <Text key={`d${i}`} color={theme.text} wrap="truncate">
          {line}
        </Text>
      ))}
      <Text> </Text>
      {scrolls ? <Text color={theme.textMuted}>{offset > 0 ? `↑ more (${offset})` : ' '}</Text> : null}
      {shown.map((line, i) => (
        <Text key={`c${offset + i}`} wrap="truncate">
          {line || ' '}
        </Text>
      ))}
      {scrolls ? (
        <Text color={theme.textMuted}>
          {offset < maxOffset ? `↓ more (${content.length - offset - bodyRows})` : ' '}
        </Text>
      ) : null}
      {reasons.map((line, i) => (
        <Text key={`r${i}`} color={theme.textMuted} wrap="truncate">
          {line}
        </Text>
      ))}
      {scope.map((line, i) => (
        <Text key={`s${i}`} color={grantable ? theme.info : theme.warning} wrap="truncate">
          {line}
        </Text>
      ))}
      {escape.map((line, i) => (
        <Text key={`e${i}`} color={theme.warning} wrap="truncate">
          {line}
        </Text>
      ))}
      {noteText === undefined ? null : (
        <Text color={theme.warning} wrap="truncate">
          {fitLine(noteText, inner)}
        </Text>
      )}
      <Box marginTop={1}>
        <Buttons buttons={buttons} selected={selected} width={inner} />
      </Box>
    </DialogFrame>
  );
}

/**
 * The dialog's size on a `columns`×`rows` screen, as the original sizes it, but with
 * floors so the port's extra rows (reasons, scope, a fourth button) still leave room for the
 * content: bash and fetch 40%×30%, edit/write/patch 80%×80%, others (MCP tools) 70%×50%, each at
 * least 80×20 (the four buttons fit on one row at 80). Never larger than the screen less a column
 * each side.
 */
export function permissionDialogSize(
  toolName: string,
  columns: number,
  rows: number,
): { width: number; height: number } {
  const [w, h] = SMALL_TOOLS.has(toolName) ? [0.4, 0.3] : DIFF_TOOLS.has(toolName) ? [0.8, 0.8] : [0.7, 0.5];
  return {
    width: Math.min(columns - 2, Math.max(80, Math.round(columns * w))),
    height: Math.min(rows, Math.max(20, Math.round(rows * h))),
  };
}

const SMALL_TOOLS = new Set(['bash', 'fetch']);
const DIFF_TOOLS = new Set(['edit', 'write', 'patch']);

/**
 * `file` as the dialog shows it: relative to `cwd` (`.` for `cwd` itself), or absolute when it is
 * outside `cwd` (a `../../..` path hides where it points).
 */
export const displayPath = (file: string, cwd: string): string => relativeToProject(file, cwd);

/** The scope line: what "allow for session" grants (`*` reads as every call of the tool). */
export function scopeText(request: Pick<PermissionRequest, 'scopes' | 'toolName'>): string {
  if (request.scopes.length === 0) return 'This call only: nothing broader can be granted';
  const scopes = request.scopes.map((s) => (s === '*' ? `every ${request.toolName} call` : s));
  return `Allow for session grants: ${scopes.join(', ')}`;
}

/**
 * The line that says what "Run outside the sandbox" does, naming its key when it has one:
 * `Run outside sandbox (o): this call runs with your full access: no sandbox`.
 */
export function escapeText(key: string | undefined): string {
  return `Run outside sandbox${key === undefined ? '' : ` (${key})`}: this call runs with your full access: no sandbox`;
}

/** The reasons, one row each, at most {@link MAX_REASON_ROWS} (the last then says how many more). */
function reasonLines(reasons: readonly string[], width: number): string[] {
  const lines = reasons.map((r) => fitLine(`· ${r.replace(/\s+/g, ' ')}`, width));
  if (lines.length <= MAX_REASON_ROWS) return lines;
  return [...lines.slice(0, MAX_REASON_ROWS - 1), `· and ${lines.length - MAX_REASON_ROWS + 1} more reasons`];
}

/** What the call does, as terminal lines of at most `width` columns. */
export function contentLines(
  request: Pick<PermissionRequest, 'toolName' | 'params'>,
  width: number,
  theme: Theme,
): string[] {
  const { params } = request;
  // a declarative custom tool: the exact argv it will run, shell-quoted, like a bash command
  if (Array.isArray(params.argv) && typeof params.command === 'string')
    return wrapText(highlightCode(params.command, 'bash', theme), width);
  switch (request.toolName) {
    case 'bash':
      if (typeof params.command === 'string') return wrapText(highlightCode(params.command, 'bash', theme), width);
      break;
    case 'edit':
    case 'write':
    case 'patch':
      if (typeof params.diff === 'string' && params.diff.trim() !== '') {
        const lines = renderDiff(params.diff, width, theme);
        if (lines.length > 0) return lines;
      }
      break;
    case 'fetch':
      if (typeof params.url === 'string') return wrapText(params.url, width);
      break;
  }
  return wrapText(JSON.stringify(params, null, 2) ?? '{}', width);
}
