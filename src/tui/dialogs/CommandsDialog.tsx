/**
 * "Commands" (ctrl+k): the same commands as the `/` list (commands.ts: the built-in ones, then the
 * custom ones from `commands/` folders, as in the original), each with its `/name` at the right
 * (a custom command's title is its name).
 * Typing filters the list; ↑/↓ move, enter runs, esc closes.
 */
import { Text } from 'ink';
import { clamp, fitText, useScreenSize, FRAME_HORIZONTAL_COLUMNS } from '../components/DialogFrame.js';
import { useTheme } from '../theme-context.js';
import { ListDialog, type DialogSizeProps, type ListItem } from './ListDialog.js';

/** A command as the dialog lists it (a `CommandItem` of commands.ts fits). */
export interface CommandSummary {
  /** e.g. `init`, `compact`, `user:git:commit` */
  id: string;
  title: string;
  /** one line, shown under the list for the selected command */
  description: string;
  /** what follows the `/` (shown at the right); default the id */
  name?: string;
}

export interface CommandsDialogProps extends DialogSizeProps {
  commands: readonly CommandSummary[];
  /**
   * the list shown is the one last known and this opening's is loading (custom commands are read
   * from disk): keys, typed filter included, wait for it (ListDialog's `loading`)
   */
  loading?: boolean;
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
  // a custom command's title is its name already: no detail then
  const items: ListItem[] = props.commands.map((c) => {
    const name = c.name ?? c.id;
    return { id: c.id, label: c.title, detail: c.title === name ? undefined : `/${name}` };
  });
  const descriptions = new Map(props.commands.map((c) => [c.id, c.description]));
  return (
    <ListDialog
      title="Commands"
      items={items}
      width={width}
      emptyText="No commands"
      {...(props.loading && { loading: 'Loading custom commands…' })}
      filterable
      onChoose={(item) => props.onRun(item.id)}
      onClose={props.onClose}
      footer={(selected) => {
        const description = selected ? (descriptions.get(selected.id) ?? '') : '';
        return description ? (
          <Text color={theme.textMuted} wrap="truncate">
            {fitText(description, width - FRAME_HORIZONTAL_COLUMNS)}
          </Text>
        ) : null;
      }}
    />
  );
}
