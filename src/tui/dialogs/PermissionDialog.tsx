/**
 * "Permission Required": a tool asks to run (reference §4, issue #4). Shows the tool, the path, the
 * description, what the call does (bash: the command highlighted; edit/write/patch: the diff; fetch:
 * the URL; MCP and other tools: the parameters as JSON), why it asks, and what "allow for session"
 * would grant. Answers with a {@link PermissionDecision}.
 *
 * Keys: `a` allow, `s` allow for session, `d` deny; ←/→/tab/shift+tab move between the buttons and
 * enter/space press the selected one; ↑↓ j/k pgup/pgdown home/end scroll the content. Esc does
 * nothing: a pending call must be answered (the agent waits on it), and a stray esc must not deny.
 *
 * When `request.scopes` is empty nothing broader than this call can be granted (a write outside the
 * project, a command that could not be analysed): the dialog says so, draws "Allow for session" and
 * "Always allow in this project" muted, and both (and `s`) then answer `allow`, this call only. They
 * stay selectable so the buttons do not shift under the person's fingers between requests.
 */
import { Box, Text } from 'ink';
import { useRef, useState } from 'react';
import type { PermissionDecision, PermissionRequest } from '../../permission/types.js';
import { DialogFrame, FRAME_HORIZONTAL_COLUMNS, FRAME_VERTICAL_ROWS, clamp, useScreenSize } from '../components/DialogFrame.js';
import { LAYER, useKeys } from '../input/InputProvider.js';
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

/** The buttons, left to right, and what each answers (when the request has scopes). */
const BUTTONS: readonly { label: string; decision: PermissionDecision }[] = [
  { label: 'Allow (a)', decision: 'allow' },
  { label: 'Allow for session (s)', decision: 'allow_session' },
  { label: 'Always allow in this project', decision: 'allow_always' },
  { label: 'Deny (d)', decision: 'deny' },
];

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
  const screen = useScreenSize(width, height);
  const size = permissionDialogSize(request.toolName, screen.columns, screen.rows);
  const inner = size.width - FRAME_HORIZONTAL_COLUMNS;
  const grantable = request.scopes.length > 0;

  // per request: a new request starts at Allow, scrolled to the top, unanswered
  const [state, setState] = useState({ id: request.id, selected: 0, offset: 0 });
  const decided = useRef<string | undefined>(undefined);
  let { selected, offset } = state;
  if (state.id !== request.id) {
    selected = 0;
    offset = 0;
    setState({ id: request.id, selected, offset });
  }

  const description = wrapText(request.description, inner).slice(0, MAX_DESCRIPTION_ROWS);
  const reasons = reasonLines(request.reasons, inner);
  const scope = wrapText(scopeText(request), inner).slice(0, MAX_SCOPE_ROWS);
  const buttons: Button[] = BUTTONS.map((b) => ({ label: b.label, dimmed: !grantable && b.decision.startsWith('allow_') }));
  const fixedRows =
    FRAME_VERTICAL_ROWS + 2 /* tool, path */ + description.length + 1 /* blank */ + reasons.length + scope.length + 1 /* blank */ +
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
    decided.current = request.id;
    onDecide(!grantable && decision.startsWith('allow_') ? 'allow' : decision);
  };
  const scrollTo = (next: number) => setState({ id: request.id, selected, offset: clamp(next, 0, maxOffset) });
  const select = (next: number) => setState({ id: request.id, selected: (next + BUTTONS.length) % BUTTONS.length, offset });

  useKeys(
    (key) => {
      if (keymap.matches(key, 'permission.allow')) decide('allow');
      else if (keymap.matches(key, 'permission.allow_session')) decide('allow_session');
      else if (keymap.matches(key, 'permission.deny')) decide('deny');
      else if (keymap.matches(key, 'button.next')) select(selected + 1);
      else if (keymap.matches(key, 'button.previous')) select(selected - 1);
      else if (keymap.matches(key, 'button.press')) decide(BUTTONS[selected]!.decision);
      else if (keymap.matches(key, 'permission.scroll_up')) scrollTo(offset - 1);
      else if (keymap.matches(key, 'permission.scroll_down')) scrollTo(offset + 1);
      else if (keymap.matches(key, 'dialog.page_up')) scrollTo(offset - Math.max(1, bodyRows - 1));
      else if (keymap.matches(key, 'dialog.page_down')) scrollTo(offset + Math.max(1, bodyRows - 1));
      else if (keymap.matches(key, 'dialog.first')) scrollTo(0);
      else if (keymap.matches(key, 'dialog.last')) scrollTo(maxOffset);
      return true;
    },
    { layer: LAYER.dialog },
  );

  const shown = content.slice(offset, offset + bodyRows);
  return (
    <DialogFrame title="Permission Required" titleRight={queued > 0 ? `(+${queued} more waiting)` : undefined} width={size.width}>
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
      <Box marginTop={1}>
        <Buttons buttons={buttons} selected={selected} width={inner} />
      </Box>
    </DialogFrame>
  );
}

/**
 * The dialog's size on a `columns`×`rows` screen, as the original sizes it (reference §4) but with
 * floors so the port's extra rows (reasons, scope, a fourth button) still leave room for the
 * content: bash and fetch 40%×30%, edit/write/patch 80%×80%, others (MCP tools) 70%×50%, each at
 * least 80×20 (the four buttons fit on one row at 80). Never larger than the screen less a column
 * each side.
 */
export function permissionDialogSize(toolName: string, columns: number, rows: number): { width: number; height: number } {
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

/** The reasons, one row each, at most {@link MAX_REASON_ROWS} (the last then says how many more). */
function reasonLines(reasons: readonly string[], width: number): string[] {
  const lines = reasons.map((r) => fitLine(`· ${r.replace(/\s+/g, ' ')}`, width));
  if (lines.length <= MAX_REASON_ROWS) return lines;
  return [...lines.slice(0, MAX_REASON_ROWS - 1), `· and ${lines.length - MAX_REASON_ROWS + 1} more reasons`];
}

/** What the call does, as terminal lines of at most `width` columns. */
export function contentLines(request: Pick<PermissionRequest, 'toolName' | 'params'>, width: number, theme: Theme): string[] {
  const { params } = request;
  // a declarative custom tool (issue 11): the exact argv it will run, shell-quoted, like a bash command
  if (Array.isArray(params.argv) && typeof params.command === 'string') return wrapText(highlightCode(params.command, 'bash', theme), width);
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
