/**
 * The bottom line (as in the original): help hint | context tokens and cost (a warning colour and the
 * percentage above 80 % of the window) | the transient status message | language servers that failed,
 * diagnostics | whether commands run in the OS sandbox | the model.
 *
 * The help hint names the key in effect (`app.help`, or `app.help_busy` while the agent works), one
 * terminals can send (the original advertised ctrl+?, which xterm and tmux send as
 * backspace). A status message is never cut by the model label: the label is cut
 * first, down to nothing; a message too long even then goes on its own rows above the bar, wrapped
 * (at most {@link MAX_MESSAGE_ROWS}).
 */
import chalk from 'chalk';
import { Box, Text } from 'ink';
import React, { memo } from 'react';
import type { StatusMessage } from '../state/chat-store.js';
import { CONTEXT_WARNING_PERCENT, contextPercent, formatCost, formatTokens } from '../format.js';
import { useKeymap } from '../keymap-context.js';
import { displayWidth, fitLine, wrapText } from '../render/text-width.js';
import { useTheme } from '../theme-context.js';

export interface StatusBarProps {
  width: number;
  /** the session's context size and cost, once a session exists; `estimated`: the provider reported no usage (shown with `~`) */
  usage?: { contextTokens: number; costUsd: number; estimated?: boolean };
  contextWindowTokens: number;
  status?: StatusMessage;
  /** diagnostics counts from language servers, when any are running */
  diagnostics?: { errors: number; warnings: number };
  /** the language servers with their state: those that failed are named (the sidebar gives the reason) */
  lspServers?: readonly { language: string; state: string }[];
  modelName: string;
  /** the active provider profile, shown before the model: `work · Claude Sonnet 5.5` */
  profile?: string;
  /** whether the bash tool's commands run in the OS sandbox; undefined until known */
  sandboxed?: boolean;
  busy: boolean;
}

/** Rows a message too long for the bar may take above it; the rest is cut. */
export const MAX_MESSAGE_ROWS = 2;
/** A model label cut narrower than this many columns (with its spaces) is dropped instead. */
const MIN_LABEL_COLUMNS = 6;

/**
 * One line (or, for a long message, the message's rows and then the line), each composed as one
 * string so it can never be wider than the terminal (a line one column too wide wraps and shifts the
 * whole screen). On a very narrow terminal the parts are dropped from the right.
 */
export const StatusBar = memo(function StatusBar({
  width,
  usage,
  contextWindowTokens,
  status,
  diagnostics,
  lspServers,
  modelName,
  profile,
  sandboxed,
  busy,
}: StatusBarProps) {
  const theme = useTheme();
  const keymap = useKeymap();
  const helpKey = (busy ? keymap.hint('app.help_busy') : undefined) ?? keymap.hint('app.help');
  const help = helpKey ? ` ${helpKey} help ` : '';
  let usageText = '';
  let warn = false;
  if (usage) {
    const percent = contextPercent(usage.contextTokens, contextWindowTokens);
    warn = percent !== undefined && percent > CONTEXT_WARNING_PERCENT;
    const about = usage.estimated ? '~' : '';
    usageText = warn
      ? ` ⚠ Context: ${about}${formatTokens(usage.contextTokens)} (${percent}%), Cost: ${about}${formatCost(usage.costUsd)} `
      : ` Context: ${about}${formatTokens(usage.contextTokens)}, Cost: ${about}${formatCost(usage.costUsd)} `;
  }
  const failed = (lspServers ?? []).filter((s) => s.state === 'failed').map((s) => s.language);
  const counts =
    diagnostics && (diagnostics.errors || diagnostics.warnings)
      ? ` ✖ ${diagnostics.errors} ⚠ ${diagnostics.warnings} `
      : '';
  const diag = (failed.length ? ` LSP ${failed.join(', ')} failed ` : '') + counts;
  const sandboxText = sandboxed === undefined ? '' : sandboxed ? ' sandboxed ' : ' not sandboxed ';
  const statusColor = status?.level === 'error' ? theme.error : status?.level === 'warn' ? theme.warning : theme.info;
  const messageText = status ? ` ${status.text.replace(/\s+/g, ' ')}` : '';
  const fixed = displayWidth(help) + displayWidth(usageText) + displayWidth(diag) + displayWidth(sandboxText);
  const label = profile ? `${profile} · ${modelName}` : modelName;
  const fullLabel = ` ${label} `;

  // the label gives way to the message: cut (keeping its spaces), or dropped when too narrow
  let model = fullLabel;
  let messageRows: string[] = [];
  let message = messageText;
  const spare = width - fixed - displayWidth(messageText);
  if (spare < displayWidth(fullLabel)) {
    if (spare >= MIN_LABEL_COLUMNS) model = ` ${fitLine(label, spare - 3)}… `;
    else if (spare >= 0) model = '';
    else {
      // even without the label the message does not fit: it takes rows of its own above the bar
      messageRows = wrapText(messageText.trimStart(), Math.max(1, width - 1)).slice(0, MAX_MESSAGE_ROWS);
      message = '';
    }
  }
  const room = width - fixed - displayWidth(model);
  let line: string;
  if (room >= 0) {
    line =
      (help ? chalk.bgHex(theme.border).hex(theme.text)(help) : '') +
      (usageText ? chalk.hex(warn ? theme.warning : theme.textMuted)(usageText) : '') +
      chalk.hex(statusColor)(message) +
      ' '.repeat(Math.max(0, room - displayWidth(message))) +
      (diag ? chalk.hex(failed.length || diagnostics!.errors ? theme.error : theme.warning)(diag) : '') +
      (sandboxText ? chalk.hex(sandboxed ? theme.textMuted : theme.warning)(sandboxText) : '') +
      (model ? chalk.bgHex(theme.secondary).hex('#000000')(model) : '');
  } else {
    line = fitLine(
      chalk.bgHex(theme.border).hex(theme.text)(help) + chalk.bgHex(theme.secondary).hex('#000000')(model),
      width,
    );
  }
  return (
    <Box width={width} flexDirection="column" flexShrink={0}>
      {messageRows.map((row, i) => (
        <Text key={i} wrap="truncate-end">
          {chalk.hex(statusColor)(` ${row}`)}
        </Text>
      ))}
      <Text wrap="truncate-end">{line}</Text>
    </Box>
  );
});
