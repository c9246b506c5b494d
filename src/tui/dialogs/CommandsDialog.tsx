/**
 * "Commands" (ctrl+k): the built-in commands (Initialize Project, Compact Session) and the custom
 * ones from `commands/` folders (reference §9.4). Enter runs, esc closes.
 */
import { Text } from 'ink';
import { useState } from 'react';
import { clamp, fitText, useScreenSize, FRAME_HORIZONTAL_COLUMNS } from '../components/DialogFrame.js';
import { useTheme } from '../theme-context.js';
import { ListDialog, type DialogSizeProps, type ListItem } from './ListDialog.js';

/** A command as the dialog lists it. */
export interface CommandSummary {
  /** e.g. `init`, `compact`, `user:git:commit` */
  id: string;
  title: string;
  /** one line, shown under the list for the selected command */
  description: string;
}

export interface CommandsDialogProps extends DialogSizeProps {
  commands: readonly CommandSummary[];
  onRun(id: string): void;
  onClose(): void;
}

/**
 * The commands dialog: 60 columns (less on a narrow screen), 10 rows visible; the selected command's
 * description is shown under the list, muted.
 */
export function CommandsDialog(props: CommandsDialogProps) {
  const theme = useTheme();
  const screen = useScreenSize(props.width, props.height);
  const width = clamp(60, 30, screen.columns - 2);
  const [selected, setSelected] = useState(0);
  const items: ListItem[] = props.commands.map((c) => ({ id: c.id, label: c.title }));
  const description = props.commands[selected]?.description ?? '';
  return (
    <ListDialog
      title="Commands"
      items={items}
      width={width}
      emptyText="No commands"
      onChoose={(item) => props.onRun(item.id)}
      onClose={props.onClose}
      footer={
        description ? (
          <Text color={theme.textMuted} wrap="truncate">
            {fitText(description, width - FRAME_HORIZONTAL_COLUMNS)}
          </Text>
        ) : null
      }
      onMove={setSelected}
    />
  );
}
