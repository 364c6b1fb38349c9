import { Anchor, Container, Group, Text } from '@mantine/core';
import { safeExternalUrl, type LegalLinks } from '../../lib/legal-links';
import { APP_NAME } from '../../components/page-title';
import { classes } from './layout-classes';

/**
 * The footer of every page, signed in or not: Impressum and Datenschutz (§ 5 DDG, Art. 13 DSGVO)
 * from the server's settings; a link stays away while its address is unknown or not a web address.
 */
export function SiteFooter({ settings }: { settings: LegalLinks | undefined }) {
  const links = [
    { label: 'Impressum', href: safeExternalUrl(settings?.imprint_url) },
    { label: 'Datenschutz', href: safeExternalUrl(settings?.privacy_url) },
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
