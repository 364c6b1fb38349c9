import { Outlet } from 'react-router';
import { Container, Paper } from '@mantine/core';
import { BrandLink } from './brand-link';
import { MainContent } from './main-content';
import { PublicFooter } from './public-footer';
import { SkipLink } from './skip-link';
import { classes } from './layout-classes';

/**
 * The signed-out frame: the logo on top, one centred card (login, password pages, 404) and the
 * footer with Impressum and Datenschutz.
 */
export function PublicLayout() {
  return (
    <div className={classes.page}>
      <SkipLink />
      <header className={classes.header}>
        <Container size="xl" className={classes.headerInner}>
          <BrandLink />
        </Container>
      </header>
      <MainContent>
        <Container size={480} px="md" py={{ base: 'lg', sm: 56 }}>
          <Paper withBorder shadow="sm" radius="lg" p={{ base: 'lg', sm: 'xl' }}>
            <Outlet />
          </Paper>
        </Container>
      </MainContent>
      <PublicFooter />
    </div>
  );
}
