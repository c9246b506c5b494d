/**
 * The name and version, as the sidebar and the welcome screen show them.
 */
import { Text } from 'ink';
import React from 'react';
import { useTheme } from '../theme-context.js';

export function Logo({ version }: { version: string }) {
  const theme = useTheme();
  return (
    <Text>
      <Text bold color={theme.primary}>
        OpenCode
      </Text>
      <Text color={theme.textMuted}> v{version}</Text>
    </Text>
  );
}
