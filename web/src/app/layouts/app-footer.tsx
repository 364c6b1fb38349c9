import { Anchor, Container, Group, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { safeExternalUrl, settingsQueryOptions } from '../../lib/settings';
import { APP_NAME } from '../../components/page-title';
import { classes } from './layout-classes';

/** Shown only when signed in; the links come from the server's settings and stay away until known. */
export function AppFooter() {
  const { data } = useQuery(settingsQueryOptions());
  const links = [
    { label: 'Impressum', href: safeExternalUrl(data?.imprint_url) },
    { label: 'Datenschutz', href: safeExternalUrl(data?.privacy_url) },
  ].filter((link): link is { label: string; href: string } => Boolean(link.href));

  return (
    <footer className={classes.footer}>
      <Container size="xl">
        <Group justify="space-between" gap="sm">
          <Text size="sm" c="dimmed">
            {APP_NAME}
          </Text>
          {links.length > 0 ? (
            <Group component="nav" aria-label="Rechtliches" gap="lg">
              {links.map((link) => (
                <Anchor key={link.label} href={link.href} size="sm" target="_blank" rel="noopener noreferrer">
                  {link.label}
                </Anchor>
              ))}
            </Group>
          ) : null}
        </Group>
      </Container>
    </footer>
  );
}
