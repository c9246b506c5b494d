/**
 * The bottom line (reference §9.2): help hint | context tokens and cost (a warning colour and the
 * percentage above 80 % of the window) | the transient status message | diagnostics | the model.
 */
import { Box, Text } from 'ink';
import React, { memo } from 'react';
import type { StatusMessage } from '../state/chat-store.js';
import { CONTEXT_WARNING_PERCENT, contextPercent, formatCost, formatTokens } from '../format.js';
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

/** One line, never wrapped: the message is cut to the space left. */
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
  return (
    <Box width={width} height={1} flexDirection="row">
      <Text backgroundColor={theme.border} color={theme.text}>
        {help}
      </Text>
      {usageText ? <Text color={warn ? theme.warning : theme.textMuted}>{usageText}</Text> : null}
      <Box flexGrow={1} flexShrink={1} overflow="hidden">
        <Text color={statusColor} wrap="truncate-end">
          {status ? ` ${status.text}` : ' '}
        </Text>
      </Box>
      {diag ? <Text color={diagnostics!.errors ? theme.error : theme.warning}>{diag}</Text> : null}
      <Text backgroundColor={theme.secondary} color="#000000">
        {model}
      </Text>
    </Box>
  );
});
