import { Link } from 'react-router';
import { Menu, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconLogout, IconUserCircle } from '@tabler/icons-react';
import { classes } from './layout-classes';

interface UserMenuProps {
  name: string;
  /** Whether the account page is open (marks the button like the current area). */
  current: boolean;
  onLogout: () => void;
}

/** Who is signed in, on wide screens: the name opens Accountverwaltung and Abmelden. */
export function UserMenu({ name, current, onLogout }: UserMenuProps) {
  return (
    <Menu position="bottom-end" width={240} shadow="md">
      <Menu.Target>
        {/* The name read out contains the visible one (WCAG 2.5.3). */}
        <UnstyledButton
          className={classes.navLink}
          data-current={current || undefined}
          aria-label={`Angemeldet als ${name}`}
        >
          <IconUserCircle size={20} aria-hidden />
          <span className={classes.userName}>{name}</span>
          <IconChevronDown size={16} aria-hidden />
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item component={Link} to="/account" leftSection={<IconUserCircle size={18} aria-hidden />}>
          Accountverwaltung
        </Menu.Item>
        <Menu.Item onClick={onLogout} leftSection={<IconLogout size={18} aria-hidden />}>
          Abmelden
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
