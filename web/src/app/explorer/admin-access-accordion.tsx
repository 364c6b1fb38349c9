import { useState } from 'react';
import { Accordion, Stack, Text } from '@mantine/core';
import { IconShieldLock } from '@tabler/icons-react';
import { AccessList } from '../../features/audit/components/access-list';
import { VisibleToList } from '../../features/audit/components/visible-to-list';

interface AdminAccessAccordionProps {
  type: 'file' | 'folder';
  id: number;
}

/** Folders have no access list, only who can see them. */
const TITLE = {
  file: 'Wer das Dokument sehen kann und wer es geöffnet hat',
  folder: 'Wer den Ordner sehen kann',
} as const;

/**
 * Below a file's or a folder's page, for admins only: who opened it and who can see it. Folded
 * away, since it is long (a table each) and rarely needed (decision 124: a phone page of 2,300 px).
 * The control is a heading of level 2; the tables' own headings are level 3. The tables load
 * when the section is opened.
 */
export function AdminAccessAccordion({ type, id }: AdminAccessAccordionProps) {
  const [opened, setOpened] = useState<string | null>(null);
  return (
    <Accordion
      variant="separated"
      radius="lg"
      order={2}
      chevronPosition="right"
      value={opened}
      onChange={setOpened}
    >
      <Accordion.Item value="access">
        <Accordion.Control icon={<IconShieldLock size={20} aria-hidden />}>
          <Text fw={600}>{TITLE[type]}</Text>
          <Text size="sm" c="dimmed">
            Nur für Admins sichtbar
          </Text>
        </Accordion.Control>
        <Accordion.Panel>
          {/* Loaded when opened: a closed panel is a hidden React Activity, whose queries would wait. */}
          {opened ? (
            <Stack gap="xl">
              {type === 'file' ? <AccessList type="file" id={id} headingOrder={3} /> : null}
              <VisibleToList type={type} id={id} headingOrder={3} />
            </Stack>
          ) : null}
        </Accordion.Panel>
      </Accordion.Item>
    </Accordion>
  );
}
