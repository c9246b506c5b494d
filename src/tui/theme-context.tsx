/**
 * The current theme, for components. Tests render without a provider and get the default theme.
 */
import { createContext, useContext } from 'react';
import type { Theme } from './theme.js';
import { THEMES } from './themes.js';

export const ThemeContext = createContext<Theme>(THEMES.opencode);

/** The theme in effect. */
export function useTheme(): Theme {
  return useContext(ThemeContext);
}
