import { useId } from 'react';
import { Anchor, Paper, Stack, Text, Title } from '@mantine/core';
import { IconMail } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { isAdmin } from '@gremienportal/contracts/rules';
import { settingsQueryOptions, type PortalSettings } from '../../lib/settings';
import touch from './touch.module.css';

type Committee = keyof PortalSettings['contacts'];

const COMMITTEES: readonly { role: Committee; label: string }[] = [
  { role: 'Aufsichtsrat', label: 'Aufsichtsrat' },
  { role: 'Vertreter', label: 'Vertreterinnen und Vertreter' },
];

/** The committees whose contact a user sees: their own, and both for admins. */
export function contactRolesFor(roles: readonly string[]): Committee[] {
  if (isAdmin(roles)) return COMMITTEES.map((entry) => entry.role);
  return COMMITTEES.filter((entry) => roles.includes(entry.role)).map((entry) => entry.role);
}

/** A plain e-mail address only; anything else from the configuration is not made a link. */
const isMailAddress = (value: string) => /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/.test(value);

/** "Kontakt": the address to write to per committee (product.md P2.4), beside the tree. */
export function ContactBox({ roles }: { roles: readonly string[] }) {
  const headingId = useId();
  const settings = useQuery(settingsQueryOptions());
  const shown = contactRolesFor(roles);
  // The box helps but is not needed to work with files: without settings it stays away.
  if (shown.length === 0 || !settings.data) return null;

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby={headingId}>
      <Stack gap="xs">
        <Title order={2} size="h5" id={headingId}>
          Kontakt
        </Title>
        {COMMITTEES.filter((entry) => shown.includes(entry.role)).map((entry) => {
          const address = settings.data.contacts[entry.role];
          return (
            <div key={entry.role}>
              <Text size="sm" c="dimmed">
                {entry.label}
              </Text>
              {isMailAddress(address) ? (
                <Anchor
                  href={`mailto:${address}`}
                  size="sm"
                  className={touch.link}
                  // Only an address wider than the box breaks, and then as late as possible.
                  style={{ overflowWrap: 'break-word', maxWidth: '100%' }}
                >
                  <IconMail size={16} aria-hidden />
                  {address}
                </Anchor>
              ) : (
                <Text size="sm">{address}</Text>
              )}
            </div>
          );
        })}
      </Stack>
    </Paper>
  );
}
