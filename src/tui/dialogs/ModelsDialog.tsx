/**
 * "Select Model" (ctrl+o): one provider's models at a time; ←/→ (h/l) switch provider, ↑↓ (k/j)
 * select, enter picks (saved to the project's config), g picks and saves to the global config
 * (so a model chosen in one project does not follow you into every other), esc closes. 40 columns wide, 10 rows visible (the original's size). Providers are
 * listed in the order given (the shell orders them; the original sorted by popularity).
 */
import { Box, Text } from 'ink';
import { useMemo } from 'react';
import { FRAME_HORIZONTAL_COLUMNS, clamp, fitText, useScreenSize } from '../components/DialogFrame.js';
import { keyPhrase } from '../key-hints.js';
import { useKeymap } from '../keymap-context.js';
import { useTheme } from '../theme-context.js';
import { useLatestState } from '../useLatestState.js';
import { ListDialog, type DialogSizeProps, type ListItem } from './ListDialog.js';

/** A provider and its models, as the dialog lists them. */
export interface ModelProvider {
  /** e.g. `anthropic` */
  id: string;
  /** e.g. `Anthropic` */
  name: string;
  /** `id` is what {@link ModelsDialogProps.onSelect} gets, e.g. `claude-sonnet-4-5` */
  models: readonly { id: string; name: string }[];
}

export interface ModelsDialogProps extends DialogSizeProps {
  /**
   * undefined while the list loads (a local server is asked for its models): the dialog says so, and
   * keys wait for the list (ListDialog's `loading`)
   */
  providers: readonly ModelProvider[] | undefined;
  /** the list shown is the last one known and a fresh one is loading: keys wait for it too */
  refreshing?: boolean;
  /** the coder agent's model: its provider opens first, the model selected and marked ✓ */
  currentModelId?: string;
  /** `global`: the person asked to save it to the global config (g), not the project's (enter) */
  onSelect(modelId: string, options: { global: boolean }): void;
  onClose(): void;
}

const NO_PROVIDERS: readonly ModelProvider[] = [];

/** Columns of the models dialog (the original's). */
export const MODELS_DIALOG_WIDTH = 40;

/** The models dialog. Switching provider wraps around at either end. */
export function ModelsDialog(props: ModelsDialogProps) {
  const theme = useTheme();
  const keymap = useKeymap();
  const screen = useScreenSize(props.width, props.height);
  const { currentModelId } = props;
  const providers = props.providers ?? NO_PROVIDERS;
  const loading = props.providers === undefined || props.refreshing === true;
  // the provider a key chose; until one does, the current model's (known once the list has loaded)
  const [chosen, chosenRef, setChosen] = useLatestState<number | undefined>(undefined);
  const providerIndex =
    chosen ??
    Math.max(
      0,
      providers.findIndex((p) => p.models.some((m) => m.id === currentModelId)),
    );
  // the provider as the last key left it: → and g (or ↓) in one read reach the handlers before React
  // re-renders, and the g must save from the new provider's list, not the old list's row
  const latestProvider = () => chosenRef.current ?? providerIndex;
  const lists = useMemo<ListItem[][]>(
    () => providers.map((p) => p.models.map((m) => ({ id: m.id, label: m.name, current: m.id === currentModelId }))),
    [providers, currentModelId],
  );
  const listOf = (index: number) => {
    const items = lists[index] ?? [];
    return {
      items,
      initialIndex: Math.max(
        0,
        items.findIndex((i) => i.current),
      ),
    };
  };
  const provider = providers[providerIndex];
  const { items, initialIndex } = listOf(providerIndex);
  const width = clamp(MODELS_DIALOG_WIDTH, 24, screen.columns - 2);
  const inner = width - FRAME_HORIZONTAL_COLUMNS;
  const count = providers.length;
  const position = count > 1 ? ` (${providerIndex + 1}/${count})` : '';
  const header = (
    <Box marginBottom={1}>
      <Text color={theme.accent} wrap="truncate">
        {props.providers === undefined
          ? ''
          : fitText(
              `${count > 1 ? '← ' : ''}${provider?.name ?? 'No providers'}${position}${count > 1 ? ' →' : ''}`,
              inner,
            )}
      </Text>
    </Box>
  );
  return (
    <ListDialog
      title="Select Model"
      items={items}
      initialIndex={initialIndex}
      width={width}
      header={header}
      emptyText="No models"
      {...(loading && { loading: 'Loading models…' })}
      footer={
        <Text color={theme.textMuted} wrap="truncate">
          {fitText(
            [
              keyPhrase(keymap, 'dialog.select', (k) => `${k}: this project`),
              keyPhrase(keymap, 'model.select_global', (k) => `${k}: global`),
            ]
              .filter((part) => part !== '')
              .join(' · '),
            inner,
          )}
        </Text>
      }
      onChoose={(item) => props.onSelect(item.id, { global: false })}
      onClose={props.onClose}
      latestItems={() => listOf(latestProvider())}
      onKey={(key, item) => {
        if (count === 0) return false;
        // `item`: the row selected when the key arrives, after the moves before it in the same read
        if (keymap.matches(key, 'model.select_global')) {
          if (item) props.onSelect(item.id, { global: true });
        } else if (keymap.matches(key, 'model.provider_previous')) {
          setChosen((latestProvider() - 1 + count) % count);
        } else if (keymap.matches(key, 'model.provider_next')) {
          setChosen((latestProvider() + 1) % count);
        } else return false;
        return true;
      }}
    />
  );
}
