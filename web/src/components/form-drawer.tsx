import type { ReactNode } from 'react';
import { Drawer, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { SMALL_SCREEN_QUERY } from './data-table-defaults';

/** The drawer's title reads as the heading it is. */
const DRAWER_STYLES = { title: { fontSize: 'var(--mantine-h3-font-size)', fontWeight: 650 } };

interface FormDrawerProps {
  opened: boolean;
  onClose: () => void;
  title: string;
  /** What the form does, in one or two sentences above it. */
  note: ReactNode;
  /** Off where the page puts the focus somewhere else after the form (a new key's token). */
  returnFocus?: boolean;
  children: ReactNode;
}

/**
 * A "… anlegen" form beside its list: from the right on a desktop, full screen on a phone, so that
 * the list comes first on the page.
 */
export function FormDrawer({ opened, onClose, title, note, returnFocus, children }: FormDrawerProps) {
  const phone = useMediaQuery(SMALL_SCREEN_QUERY);
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      title={title}
      position="right"
      size={phone ? '100%' : 'lg'}
      styles={DRAWER_STYLES}
      {...(returnFocus === undefined ? {} : { returnFocus })}
    >
      <Text size="sm" c="dimmed" mb="md">
        {note}
      </Text>
      {children}
    </Drawer>
  );
}
