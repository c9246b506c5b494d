/**
 * The bottom line (reference §9.2): help hint | context tokens and cost (a warning colour and the
 * percentage above 80 % of the window) | the transient status message | diagnostics | the model.
 */
import chalk from 'chalk';
import { Box, Text } from 'ink';
import React, { memo } from 'react';
import type { StatusMessage } from '../state/chat-store.js';
import { CONTEXT_WARNING_PERCENT, contextPercent, formatCost, formatTokens } from '../format.js';
import { displayWidth, fitLine } from '../render/text-width.js';
import { useTheme } from '../theme-context.js';

export interface StatusBarProps {
  width: number;
  /** the session's context size and cost, once a session exists */
  usage?: { contextTokens: number; costUsd: number };
  contextWindowTokens: number;
  status?: StatusMessage;
  /** diagnostics counts from language servers, when any are running */
  diagnostics?: { errors: number; warnings: number };
  modelName: string;
  busy: boolean;
}

/**
 * One line, composed as one string so it can never be wider than the terminal (a line one column
 * too wide wraps and shifts the whole screen): the message gets what the fixed parts leave, and on
 * a very narrow terminal the parts are dropped from the right.
 */
export const StatusBar = memo(function StatusBar({ width, usage, contextWindowTokens, status, diagnostics, modelName, busy }: StatusBarProps) {
  const theme = useTheme();
  const help = busy ? ' ? help ' : ' ctrl+? help ';
  let usageText = '';
  let warn = false;
  if (usage) {
    const percent = contextPercent(usage.contextTokens, contextWindowTokens);
    warn = percent !== undefined && percent > CONTEXT_WARNING_PERCENT;
    usageText = warn
      ? ` ⚠ Context: ${formatTokens(usage.contextTokens)} (${percent}%), Cost: ${formatCost(usage.costUsd)} `
      : ` Context: ${formatTokens(usage.contextTokens)}, Cost: ${formatCost(usage.costUsd)} `;
  }
  const diag = diagnostics && (diagnostics.errors || diagnostics.warnings) ? ` ✖ ${diagnostics.errors} ⚠ ${diagnostics.warnings} ` : '';
  const model = ` ${modelName} `;
  const statusColor = status?.level === 'error' ? theme.error : status?.level === 'warn' ? theme.warning : theme.info;
  const fixed = displayWidth(help) + displayWidth(usageText) + displayWidth(diag) + displayWidth(model);
  const room = width - fixed;
  let line: string;
  if (room >= 1) {
    const message = status ? fitLine(` ${status.text.replace(/\s+/g, ' ')}`, room) : '';
    line =
      chalk.bgHex(theme.border).hex(theme.text)(help) +
      (usageText ? chalk.hex(warn ? theme.warning : theme.textMuted)(usageText) : '') +
      chalk.hex(statusColor)(message) +
      ' '.repeat(room - displayWidth(message)) +
      (diag ? chalk.hex(diagnostics!.errors ? theme.error : theme.warning)(diag) : '') +
      chalk.bgHex(theme.secondary).hex('#000000')(model);
  } else {
    line = fitLine(chalk.bgHex(theme.border).hex(theme.text)(help) + chalk.bgHex(theme.secondary).hex('#000000')(model), width);
  }
  return (
    <Box width={width} height={1}>
      <Text wrap="truncate-end">{line}</Text>
    </Box>
  );
});
