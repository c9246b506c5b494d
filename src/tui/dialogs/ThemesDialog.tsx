/**
 * "Select Theme" (ctrl+t): the theme names, each with where it comes from (built-in, user, project);
 * enter picks (the shell applies it and saves it with
 * `setGlobalConfigValue(['tui', 'theme'])`, unless its file has a problem), esc closes. Moving does not preview: the choice takes
 * effect on enter only.
 */
import { clamp, useScreenSize } from '../components/DialogFrame.js';
import { ListDialog, type DialogSizeProps } from './ListDialog.js';

export interface ThemesDialogProps extends DialogSizeProps {
  /** in the order shown, e.g. `THEME_NAMES` */
  names: readonly string[];
  /** where each theme comes from, shown muted at the row's end, e.g. `{ neon: 'project' }` */
  details?: Readonly<Record<string, string>>;
  /** the theme in use: selected at first and marked ✓ */
  current: string;
  onSelect(name: string): void;
  onClose(): void;
}

/** The themes dialog: 40 columns (less on a narrow screen), 10 rows visible. */
export function ThemesDialog(props: ThemesDialogProps) {
  const screen = useScreenSize(props.width, props.height);
  const items = props.names.map((name) => ({
    id: name,
    label: name,
    detail: props.details?.[name],
    current: name === props.current,
  }));
  return (
    <ListDialog
      title="Select Theme"
      items={items}
      initialIndex={Math.max(0, props.names.indexOf(props.current))}
      width={clamp(40, 24, screen.columns - 2)}
      emptyText="No themes"
      onChoose={(item) => props.onSelect(item.id)}
      onClose={props.onClose}
    />
  );
}
