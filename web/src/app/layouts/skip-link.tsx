import { classes } from './layout-classes';

export const MAIN_CONTENT_ID = 'main-content';

/** The first stop for keyboard users: jumps over the header straight to the page content. */
export function SkipLink() {
  return (
    <a
      href={`#${MAIN_CONTENT_ID}`}
      className={classes.skipLink}
      onClick={(event) => {
        event.preventDefault();
        document.getElementById(MAIN_CONTENT_ID)?.focus();
      }}
    >
      Zum Inhalt springen
    </a>
  );
}
