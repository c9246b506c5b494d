/**
 * The keymap in effect (the table with the config's `keybindings` laid over it), for components.
 * Tests render without a provider and get the table's own keys.
 */
import { createContext, useContext } from 'react';
import { DEFAULT_KEYMAP, type Keymap } from './keymap.js';

export const KeymapContext = createContext<Keymap>(DEFAULT_KEYMAP);

/** The keymap in effect: `useKeymap().matches(key, 'session.new')`. */
export function useKeymap(): Keymap {
  return useContext(KeymapContext);
}
