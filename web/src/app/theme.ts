import { createTheme, type CSSVariablesResolver, type MantineColorsTuple } from '@mantine/core';

/** The cooperative's green; shade 8 (the filled shade) keeps white text above 4.5:1 contrast. */
const brand: MantineColorsTuple = [
  '#e6f6f0',
  '#cdeee1',
  '#9fdcc5',
  '#6dc9a7',
  '#45b88d',
  '#2ca97c',
  '#1b9a6e',
  '#138a64',
  '#0f7b5f',
  '#0a6650',
];

const MODAL_TITLE = {
  fontSize: 'var(--mantine-h3-font-size)',
  fontWeight: 650,
  lineHeight: 'var(--mantine-h3-line-height)',
} as const;

export const theme = createTheme({
  primaryColor: 'brand',
  colors: { brand },
  // Shade 8 of every colour as the filled/text shade: readable for older eyes (WCAG AA).
  primaryShade: { light: 8, dark: 6 },
  defaultRadius: 'md',
  // No sliding or fading for people who asked their system for reduced motion.
  respectReducedMotion: true,
  cursorType: 'pointer',
  focusRing: 'auto',
  fontFamily:
    'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  // 14 px is the smallest text anywhere (decision 124): "xs" texts, badges and small buttons included.
  fontSizes: { xs: '0.875rem', sm: '0.875rem', md: '1rem', lg: '1.125rem', xl: '1.25rem' },
  // Sizes from global.css: smaller on phones, so that a long German title stays within three lines.
  headings: {
    fontWeight: '650',
    sizes: {
      h1: { fontSize: 'var(--app-h1-size)', lineHeight: '1.25' },
      h2: { fontSize: 'var(--app-h2-size)', lineHeight: '1.3' },
      h3: { fontSize: 'var(--app-h3-size)', lineHeight: '1.35' },
      h4: { fontSize: 'var(--app-h4-size)', lineHeight: '1.4' },
    },
  },
  // Plain objects rather than `Select.extend(…)`: referencing the components here would pull
  // them all into the first bundle the login page loads.
  components: {
    // 16 px text in every input: easier to read, and phones do not zoom in on focus.
    Input: { defaultProps: { size: 'md' } },
    InputWrapper: { defaultProps: { size: 'md' } },
    Modal: {
      defaultProps: { closeButtonProps: { 'aria-label': 'Schließen' } },
      // A dialog's title is its heading: larger than the text below it.
      styles: { title: MODAL_TITLE },
    },
    // A <header> inside a dialog would count as a second page banner for screen readers.
    ModalHeader: { defaultProps: { component: 'div' } },
    DrawerHeader: { defaultProps: { component: 'div' } },
    Drawer: {
      defaultProps: { closeButtonProps: { 'aria-label': 'Schließen' } },
      styles: { title: MODAL_TITLE },
    },
    // Role labels look the same everywhere; size, case and wrapping come from mantine-overrides.css.
    Badge: { defaultProps: { variant: 'light', color: 'brand', radius: 'xl', size: 'lg' } },
    Notification: { defaultProps: { closeButtonProps: { 'aria-label': 'Schließen' } } },
    Alert: { defaultProps: { closeButtonLabel: 'Schließen' } },
    PasswordInput: {
      defaultProps: { visibilityToggleButtonProps: { 'aria-label': 'Passwort anzeigen oder verbergen' } },
    },
    Select: { defaultProps: { nothingFoundMessage: 'Keine Treffer', allowDeselect: false } },
    MultiSelect: { defaultProps: { nothingFoundMessage: 'Keine Treffer' } },
  },
});

/** Secondary ("dimmed") and error texts darker than Mantine's defaults, which miss the contrast minimum. */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': '#5c636a', '--mantine-color-error': '#c92a2a' },
  dark: {},
});
