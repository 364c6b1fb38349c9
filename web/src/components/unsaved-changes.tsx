import { useEffect, useRef, useState } from 'react';
import { useBlocker } from 'react-router';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';

/**
 * Asks before leaving a page with unsaved changes: a dialog for a move inside the portal (a link,
 * the back button) and the browser's own question for closing or reloading the tab. `allowNext`
 * lets one navigation through without asking, e.g. to the saved result.
 */
export function useUnsavedChanges(dirty: boolean) {
  const allowOnce = useRef(false);
  // The next page may still be loading when the move goes on: the question closes at once.
  const [leaving, setLeaving] = useState(false);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirty && !allowOnce.current && currentLocation.pathname !== nextLocation.pathname,
  );

  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers show the question only with a return value.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  const dialog = (
    <Modal
      opened={blocker.state === 'blocked' && !leaving}
      onClose={() => blocker.reset?.()}
      title="Änderungen verwerfen?"
      centered
    >
      <Stack gap="md">
        <Text>Ihre Änderungen sind noch nicht gespeichert. Beim Verlassen der Seite gehen sie verloren.</Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={() => blocker.reset?.()} data-autofocus>
            Weiter bearbeiten
          </Button>
          <Button
            color="red"
            onClick={() => {
              setLeaving(true);
              blocker.proceed?.();
            }}
          >
            Verwerfen und verlassen
          </Button>
        </Group>
      </Stack>
    </Modal>
  );

  return {
    dialog,
    /** Lets the next navigation through without asking (after saving). */
    allowNext: () => {
      allowOnce.current = true;
    },
  };
}
