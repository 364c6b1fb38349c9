import { lazy } from 'react';
import { Outlet, Link, useLocation } from 'react-router';
import { Box, Burger, Container, Divider, Drawer, Stack, Text, UnstyledButton } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconLogout } from '@tabler/icons-react';
import { isSuperAdmin } from '@gremienportal/contracts/rules';
import { useAuth } from '../../lib/auth';
import { SignedInProviders } from '../signed-in-providers';
import { AppFooter } from './app-footer';
import { BrandLink } from './brand-link';
import { HeaderSearch } from './header-search';
import { MainContent } from './main-content';
import { navItemsFor, type NavItem } from './nav-items';
import { SkipLink } from './skip-link';
import { TwoFactorGate } from './two-factor-gate';
import { DeferredMenu } from '../../components/deferred-menu';
import { UserMenuButton } from './user-menu-button';

// Mantine's Menu loads with the first click on the name, not with the page (decision 024).
const UserMenu = lazy(() => import('./user-menu'));
import { classes } from './layout-classes';

const MOBILE_NAV_ID = 'mobile-navigation';
/** More areas than this take less room beside the search (layouts.module.css). */
const LONG_NAV = 5;

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

/**
 * The signed-in frame: header with the areas and the signed-in user's menu (Accountverwaltung,
 * Abmelden); on small screens everything sits in the burger menu. Then content and footer.
 */
export default function AppLayout() {
  const { user, isAdmin, logout } = useAuth();
  const { pathname } = useLocation();
  const [menuOpened, menu] = useDisclosure(false);
  const items = navItemsFor(isAdmin, isSuperAdmin(user?.roles ?? []));
  // Wide screens: the account page and the sign-out sit in the menu under the user's name.
  const areaItems = items.filter((item) => item.to !== '/account');

  const handleLogout = () => {
    menu.close();
    // Signed out, the route guard shows the login page.
    void logout();
  };

  const accountOpen = pathname === '/account' || pathname.startsWith('/account/');

  return (
    <SignedInProviders>
      <div className={classes.page}>
        <TwoFactorGate />
        <SkipLink />
        <header className={classes.header}>
          <Container size="xl" className={classes.headerInner}>
            <BrandLink />
            <HeaderSearch />
            <Box
              component="nav"
              aria-label="Hauptnavigation"
              className={classes.desktopNav}
              visibleFrom="md"
              data-long={areaItems.length > LONG_NAV || undefined}
            >
              {areaItems.map((item) => (
                <NavEntry key={item.to} item={item} pathname={pathname} className={classes.navLink} />
              ))}
              {user ? (
                <DeferredMenu
                  trigger={(onClick) => (
                    <UserMenuButton name={user.name} current={accountOpen} onClick={onClick} />
                  )}
                >
                  <UserMenu name={user.name} current={accountOpen} onLogout={handleLogout} defaultOpened />
                </DeferredMenu>
              ) : null}
            </Box>
            {/* One way in on small screens: every entry, Events included, is in the menu. */}
            <Burger
              hiddenFrom="md"
              opened={menuOpened}
              onClick={menu.toggle}
              aria-label={menuOpened ? 'Menü schließen' : 'Menü öffnen'}
              aria-expanded={menuOpened}
              aria-controls={MOBILE_NAV_ID}
            />
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

        <MainContent fillScreen>
          <Container size="xl" py={{ base: 'md', sm: 'xl' }}>
            <Outlet />
          </Container>
        </MainContent>
        <AppFooter />
      </div>
    </SignedInProviders>
  );
}
