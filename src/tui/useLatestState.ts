import { useCallback, useRef, useState, type MutableRefObject } from 'react';

/**
 * State whose latest value a key handler can read at once: `[value, latest, set]`. Keys that arrive
 * in one read (tab then enter) reach the handler before React re-renders, so the handler reads
 * `latest.current`, which `set` updates at once, while rendering uses `value`. `set` is the same
 * function at every render, so callbacks that use it need not be made again.
 */
export function useLatestState<T>(initial: T): [T, MutableRefObject<T>, (next: T) => void] {
  const [value, setValue] = useState(initial);
  const latest = useRef(value);
  const set = useCallback((next: T) => {
    latest.current = next;
    setValue(next);
  }, []);
  return [value, latest, set];
}
