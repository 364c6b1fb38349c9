import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { Button, Container, Group, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '../../components/page-title';
import NotFoundPage from './not-found';

/** A page's code could not be loaded: most often an update was deployed while the tab was open. */
function isChunkLoadError(error: unknown): boolean {
  return (
    error instanceof Error &&
    /dynamically imported module|Importing a module script failed|error loading dynamically/i.test(
      error.message,
    )
  );
}

/** Shown instead of a page that failed while rendering; never a blank screen. */
export default function RouteErrorPage() {
  const error = useRouteError();
  useDocumentTitle('Fehler');
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;

  const outdated = isChunkLoadError(error);
  return (
    <Container size="sm" py="xl">
      <Stack gap="md" align="flex-start" role="alert">
        <Title order={1}>{outdated ? 'Neue Version verfügbar' : 'Es ist ein Fehler aufgetreten'}</Title>
        <Text>
          {outdated
            ? 'Das Gremienportal wurde aktualisiert. Bitte laden Sie die Seite neu.'
            : 'Die Seite konnte nicht angezeigt werden. Bitte laden Sie die Seite neu oder versuchen Sie es später erneut.'}
        </Text>
        <Group>
          <Button onClick={() => window.location.reload()}>Seite neu laden</Button>
          <Button component={Link} to="/" variant="default">
            Zur Startseite
          </Button>
        </Group>
      </Stack>
    </Container>
  );
}
