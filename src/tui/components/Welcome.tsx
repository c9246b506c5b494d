/**
 * What the message area shows before the first prompt of a session: the name, version, project
 * and the few keys a newcomer needs.
 */
import { Box, Text } from 'ink';
import React, { memo } from 'react';
import { useTheme } from '../theme-context.js';
import { Logo } from './Logo.js';

export interface WelcomeProps {
  version: string;
  cwd: string;
  modelName: string;
}

export const Welcome = memo(function Welcome({ version, cwd, modelName }: WelcomeProps) {
  const theme = useTheme();
  const hint = (key: string, text: string) => (
    <Text>
      <Text color={theme.primary}>{key.padEnd(10)}</Text>
      <Text color={theme.textMuted}>{text}</Text>
    </Text>
  );
  return (
    <Box flexDirection="column" paddingTop={1}>
      <Logo version={version} />
      <Text color={theme.textMuted} wrap="truncate-middle">
        {cwd} · {modelName}
      </Text>
      <Text> </Text>
      <Text color={theme.text}>Type a request and press enter.</Text>
      <Text> </Text>
      {hint('@', 'add a file or folder of the project')}
      {hint('ctrl+k', 'commands (initialize project, compact session)')}
      {hint('ctrl+s', 'earlier sessions')}
      {hint('ctrl+o', 'change model')}
      {hint('ctrl+_', 'all keys')}
    </Box>
  );
});
