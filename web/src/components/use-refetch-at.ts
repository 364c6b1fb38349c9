import { useEffect } from 'react';

/**
 * Loads a list again when a time it names has come (e.g. from when the next reminder is possible),
 * so a waiting button wakes up by itself.
 */
export function useRefetchAt(iso: string | null, refetch: () => unknown) {
  useEffect(() => {
    if (!iso) return;
    const wait = new Date(iso).getTime() - Date.now();
    // Timers longer than about 24 days fire at once; no reminder waits that long.
    if (wait <= 0 || wait > 2 ** 31 - 1) return;
    const timer = setTimeout(() => void refetch(), wait + 500);
    return () => clearTimeout(timer);
  }, [iso, refetch]);
}
