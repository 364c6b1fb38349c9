import rawClasses from './layouts.module.css';

type LayoutClass =
  | 'page'
  | 'skipLink'
  | 'header'
  | 'headerInner'
  | 'brand'
  | 'desktopNav'
  | 'navLink'
  | 'userName'
  | 'drawerLink'
  | 'main'
  | 'pageLoading'
  | 'footer';

/** The class names of layouts.module.css, typed so a misspelt name fails the typecheck. */
export const classes = rawClasses as Record<LayoutClass, string>;
