import { vi } from 'vitest';

/**
 * A desktop screen for mantine-datatable, which shows a cell only while its media query matches
 * ('' when the column names none): '' and every `min-width` query match, `max-width` ones do not.
 */
export function onDesktop() {
  vi.spyOn(window, 'matchMedia').mockImplementation(
    (query: string) =>
      ({
        matches: query === '' || query.includes('min-width'),
        media: query,
        onchange: null,
        addListener: () => {},
        removeListener: () => {},
        addEventListener: () => {},
        removeEventListener: () => {},
        dispatchEvent: () => false,
      }) as MediaQueryList,
  );
}
