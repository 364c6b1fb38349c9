import { Link } from 'react-router';
import { Menu } from '@mantine/core';
import { IconLogout, IconUserCircle } from '@tabler/icons-react';
import { UserMenuButton } from './user-menu-button';

interface UserMenuProps {
  name: string;
  /** Whether the account page is open (marks the button like the current area). */
  current: boolean;
  onLogout: () => void;
  defaultOpened?: boolean;
}

/**
 * Who is signed in, on wide screens: the name opens Accountverwaltung and Abmelden. Loaded on
 * the first click (`UserMenuButton` stands in until then).
 */
export default function UserMenu({ name, current, onLogout, defaultOpened }: UserMenuProps) {
  return (
    <Menu position="bottom-end" width={240} shadow="md" defaultOpened={defaultOpened}>
      <Menu.Target>
        <UserMenuButton name={name} current={current} />
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
