import { forwardRef } from 'react';
import { UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconUserCircle } from '@tabler/icons-react';
import { classes } from './layout-classes';

/** The button with the signed-in user's name; the menu's target and its stand-in before it loads. */
export const UserMenuButton = forwardRef<
  HTMLButtonElement,
  { name: string; current: boolean; onClick?: () => void }
>(function UserMenuButton({ name, current, ...props }, ref) {
  return (
    // The name read out contains the visible one (WCAG 2.5.3).
    <UnstyledButton
      ref={ref}
      className={classes.navLink}
      data-current={current || undefined}
      aria-label={`Angemeldet als ${name}`}
      aria-haspopup="menu"
      {...props}
    >
      <IconUserCircle size={20} aria-hidden />
      <span className={classes.userName}>{name}</span>
      <IconChevronDown size={16} aria-hidden />
    </UnstyledButton>
  );
});
