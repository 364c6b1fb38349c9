import { Outlet, Link, useLocation } from 'react-router';
import { Box, Burger, Container, Divider, Drawer, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconLogout } from '@tabler/icons-react';
import { useAuth } from '../../lib/auth';
import { SignedInProviders } from '../signed-in-providers';
import { AppFooter } from './app-footer';
import { BrandLink } from './brand-link';
import { MainContent } from './main-content';
import { navItemsFor, NAV_ITEMS, type NavItem } from './nav-items';
import { SkipLink } from './skip-link';
import { classes } from './layout-classes';

const MOBILE_NAV_ID = 'mobile-navigation';
const EVENTS_ITEM = NAV_ITEMS.find((item) => item.to === '/events')!;

function NavEntry({
  item,
  pathname,
  className,
  onNavigate,
}: {
  item: NavItem;
  pathname: string;
  className: string;
  onNavigate?: () => void;
}) {
  return (
    <Link
      to={item.to}
      className={className}
      aria-current={item.matches(pathname) ? 'page' : undefined}
      onClick={onNavigate}
    >
      {item.label}
    </Link>
  );
}

/** The signed-in frame: header with navigation (burger menu on small screens), content, footer. */
export default function AppLayout() {
  const { user, isAdmin, logout } = useAuth();
  const { pathname } = useLocation();
  const [menuOpened, menu] = useDisclosure(false);
  const items = navItemsFor(isAdmin);

  const handleLogout = () => {
    menu.close();
    // Signed out, the route guard shows the login page.
    void logout();
  };

  return (
    <SignedInProviders>
      <div className={classes.page}>
        <SkipLink />
        <header className={classes.header}>
          <Container size="xl" className={classes.headerInner}>
            <BrandLink />
            <Box component="nav" aria-label="Hauptnavigation" className={classes.desktopNav} visibleFrom="md">
              {items.map((item) => (
                <NavEntry key={item.to} item={item} pathname={pathname} className={classes.navLink} />
              ))}
              <UnstyledButton className={classes.navLink} onClick={handleLogout}>
                <IconLogout size={18} aria-hidden />
                Abmelden
              </UnstyledButton>
            </Box>
            <Group gap={4} hiddenFrom="md" wrap="nowrap">
              {/* Events stay reachable on every width (product.md P2.1). */}
              <NavEntry item={EVENTS_ITEM} pathname={pathname} className={classes.navLink} />
              <Burger
                opened={menuOpened}
                onClick={menu.toggle}
                aria-label={menuOpened ? 'Menü schließen' : 'Menü öffnen'}
                aria-expanded={menuOpened}
                aria-controls={MOBILE_NAV_ID}
              />
            </Group>
          </Container>
        </header>

        <Drawer
          opened={menuOpened}
          onClose={menu.close}
          position="right"
          size={300}
          title="Menü"
          hiddenFrom="md"
          id={MOBILE_NAV_ID}
        >
          <Stack gap="xs">
            {user ? (
              <Text size="sm" c="dimmed">
                Angemeldet als {user.name}
              </Text>
            ) : null}
            <Stack component="nav" aria-label="Hauptnavigation" gap={2}>
              {items.map((item) => (
                <NavEntry
                  key={item.to}
                  item={item}
                  pathname={pathname}
                  className={classes.drawerLink}
                  onNavigate={menu.close}
                />
              ))}
            </Stack>
            <Divider my="xs" />
            <UnstyledButton className={classes.drawerLink} onClick={handleLogout}>
              <IconLogout size={18} aria-hidden />
              Abmelden
            </UnstyledButton>
          </Stack>
        </Drawer>

        <MainContent>
          <Container size="xl" py={{ base: 'md', sm: 'xl' }}>
            <Outlet />
          </Container>
        </MainContent>
        <AppFooter />
      </div>
    </SignedInProviders>
  );
}
