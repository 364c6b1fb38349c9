import { Link } from 'react-router';
import { Button, Stack, Text } from '@mantine/core';
import { PageTitle } from '../../components/page-title';

export const NOT_FOUND_MESSAGE = 'Seite wurde nicht gefunden';

export default function NotFoundPage() {
  return (
    <Stack gap="md" align="flex-start">
      <PageTitle>{NOT_FOUND_MESSAGE}</PageTitle>
      <Text>Bitte prüfen Sie die Adresse oder kehren Sie zur Startseite zurück.</Text>
      <Button component={Link} to="/">
        Zur Startseite
      </Button>
    </Stack>
  );
}
