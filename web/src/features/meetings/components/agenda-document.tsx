import { Button, Flex, Group, Text } from '@mantine/core';
import { IconDownload, IconEye, IconEyeOff } from '@tabler/icons-react';
import type { AgendaFile } from '@gremienportal/contracts/meetings';
import { DocumentSummary } from '../../../components/document-summary';
import { fileNameOf, useOpenDocument } from '../../../lib/document-content';
import { unseenByText } from '../agenda.rules';

/**
 * One document of an agenda item: icon, name, type and size, "Ansehen" and "Herunterladen" as in
 * the file dialog (fetched with the bearer header; a failure shows nothing, product.md P12). Admins
 * also read which of the event's roles cannot see it.
 */
export function AgendaDocument({ file }: { file: AgendaFile }) {
  const name = fileNameOf(file);
  const { busy, run } = useOpenDocument(file);
  const unseen = file.unseen_by ?? [];
  return (
    <Flex
      component="li"
      direction={{ base: 'column', sm: 'row' }}
      gap={{ base: 'xs', sm: 'md' }}
      align={{ base: 'stretch', sm: 'center' }}
      py="xs"
    >
      <DocumentSummary title={file.title} format={file.format} sizeBytes={file.size_bytes}>
        {unseen.length > 0 ? (
          <Group gap={4} wrap="nowrap" align="flex-start" mt={2}>
            {/* The text in the body colour (orange text misses 4.5:1), the icon marks it. */}
            <IconEyeOff
              size={16}
              aria-hidden
              style={{ flexShrink: 0, marginTop: 3, color: 'var(--mantine-color-orange-9)' }}
            />
            <Text size="sm" fw={500}>
              {unseenByText(unseen)}
            </Text>
          </Group>
        ) : null}
      </DocumentSummary>
      {/* Side by side where they fit with their whole words, else one below the other. */}
      <Group gap="xs" grow preventGrowOverflow={false} style={{ flexShrink: 0 }}>
        <Button
          variant="light"
          size="sm"
          miw="fit-content"
          leftSection={<IconEye size={18} aria-hidden />}
          loading={busy === 'view'}
          disabled={busy !== null && busy !== 'view'}
          aria-label={`„${name}“ ansehen`}
          onClick={() => void run('view')}
        >
          Ansehen
        </Button>
        <Button
          variant="default"
          size="sm"
          miw="fit-content"
          leftSection={<IconDownload size={18} aria-hidden />}
          loading={busy === 'download'}
          disabled={busy !== null && busy !== 'download'}
          aria-label={`„${name}“ herunterladen`}
          onClick={() => void run('download')}
        >
          Herunterladen
        </Button>
      </Group>
    </Flex>
  );
}
