import { Suspense, type ReactNode } from 'react';
import { Modal } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { SMALL_SCREEN_QUERY } from '../../../components/data-table-defaults';
import { LoadingState } from '../../../components/loading-state';

interface FormModalProps {
  opened: boolean;
  onClose: () => void;
  title: string;
  size?: string;
  /** Rendered only while open, so a lazy form loads with the first opening. */
  children: ReactNode;
}

/** The committee pages' dialogs: centred on a desktop, full screen on a phone. */
export function FormModal({ opened, onClose, title, size = 'lg', children }: FormModalProps) {
  const phone = useMediaQuery(SMALL_SCREEN_QUERY);
  return (
    <Modal opened={opened} onClose={onClose} title={title} size={size} fullScreen={phone} centered>
      {opened ? <Suspense fallback={<LoadingState />}>{children}</Suspense> : null}
    </Modal>
  );
}
