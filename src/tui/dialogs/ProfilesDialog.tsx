/**
 * "Select Profile" (alt+p, or ctrl+k → Select Profile): the provider profiles of
 * `.opencode.json`, and "no profile" first. Each row shows the profile's coder model, or that a key
 * is missing; the selected row's description and problems are shown under the list. Enter switches
 * for the next request (the shell does it and reports a missing key), esc closes.
 */
import { Box, Text } from 'ink';
import { FRAME_HORIZONTAL_COLUMNS, clamp, fitText, useScreenSize } from '../components/DialogFrame.js';
import type { ProfileView } from '../state/services.js';
import { useTheme } from '../theme-context.js';
import { ListDialog, type DialogSizeProps, type ListItem } from './ListDialog.js';

/** The row id of "no profile" (a profile cannot be named with a NUL). */
export const NO_PROFILE_ID = '\u0000none';

export interface ProfilesDialogProps extends DialogSizeProps {
  profiles: readonly ProfileView[];
  /** the active profile: selected at first and marked ✓; undefined when none is */
  active?: string;
  /** `undefined`: no profile */
  onSelect(name: string | undefined): void;
  onClose(): void;
}

/** Columns of the profiles dialog. */
export const PROFILES_DIALOG_WIDTH = 56;

/** The profiles dialog. */
export function ProfilesDialog(props: ProfilesDialogProps) {
  const theme = useTheme();
  const screen = useScreenSize(props.width, props.height);
  const width = clamp(PROFILES_DIALOG_WIDTH, 24, screen.columns - 2);
  const inner = width - FRAME_HORIZONTAL_COLUMNS;
  const items: ListItem[] = [
    {
      id: NO_PROFILE_ID,
      label: '(no profile)',
      detail: "the files' own settings",
      current: props.active === undefined,
    },
    ...props.profiles.map((p) => ({
      id: p.name,
      label: p.name,
      detail: p.problems.length > 0 ? 'key missing' : (p.coderModel ?? ''),
      current: p.name === props.active,
    })),
  ];
  const footer = (selected: ListItem | undefined) => {
    const profile = props.profiles.find((p) => p.name === selected?.id);
    const lines =
      props.profiles.length === 0
        ? ['No profiles: add them under "profiles" in .opencode.json (docs/configuration.md, Profiles)']
        : [profile?.description, ...(profile?.problems ?? [])].filter((line): line is string => !!line);
    if (lines.length === 0) return null;
    return (
      <Box flexDirection="column" marginTop={1}>
        {lines.map((line, i) => (
          <Text
            key={i}
            color={i === 0 && (profile?.description || props.profiles.length === 0) ? theme.textMuted : theme.warning}
            wrap="truncate"
          >
            {fitText(line, inner)}
          </Text>
        ))}
      </Box>
    );
  };
  return (
    <ListDialog
      title="Select Profile"
      items={items}
      initialIndex={Math.max(
        0,
        items.findIndex((i) => i.current),
      )}
      width={width}
      footer={footer}
      onChoose={(item) => props.onSelect(item.id === NO_PROFILE_ID ? undefined : item.id)}
      onClose={props.onClose}
    />
  );
}
