/**
 * What the message area shows before the first prompt of a session: the name, version, project
 * and the few keys a newcomer needs.
 */
import { Box, Text } from 'ink';
import React, { memo } from 'react';
import type { ActionName } from '../keybindings.js';
import { useKeymap } from '../keymap-context.js';
import { useTheme } from '../theme-context.js';
import { Logo } from './Logo.js';

export interface WelcomeProps {
  version: string;
  cwd: string;
  modelName: string;
  /** the active provider profile, named before the model as the status bar names it */
  profile?: string;
}

export const Welcome = memo(function Welcome({ version, cwd, modelName, profile }: WelcomeProps) {
  const theme = useTheme();
  const keymap = useKeymap();
  // the keys in effect (a rebound or unbound action shows its new key, or nothing)
  const hint = (action: ActionName | '@', text: string) => {
    const key = action === '@' ? '@' : keymap.hint(action);
    return key === undefined ? null : (
      <Text>
        <Text color={theme.primary}>{key.padEnd(10)}</Text>
        <Text color={theme.textMuted}>{text}</Text>
      </Text>
    );
  };
  return (
    <Box flexDirection="column" paddingTop={1}>
      <Logo version={version} />
      <Text color={theme.textMuted} wrap="truncate-middle">
        {cwd} · {profile ? `${profile} · ` : ''}
        {modelName}
      </Text>
      <Text> </Text>
      <Text color={theme.text}>Type a request and press enter.</Text>
      <Text> </Text>
      {hint('@', 'add a file or folder of the project')}
      {hint('command.list', 'commands (initialize project, compact session)')}
      {hint('session.list', 'earlier sessions')}
      {hint('model.list', 'change model')}
      {hint('app.help', 'all keys')}
    </Box>
  );
});
