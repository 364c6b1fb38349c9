import { useMergedRef } from '@mantine/hooks';
import type { Ref } from 'react';

/**
 * `useMergeRefs` of `@floating-ui/react`, as Mantine's ScrollArea calls it (an array of refs), on
 * Mantine's own `useMergedRef`. The build gives it to ScrollArea instead of the floating-ui package,
 * which would otherwise come whole into every page's first load (decision 184).
 */
export function useMergeRefs<T>(refs: ReadonlyArray<Ref<T> | undefined>) {
  return useMergedRef<T>(...refs);
}
