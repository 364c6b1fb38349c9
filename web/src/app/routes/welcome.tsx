import { Link } from 'react-router';
import { Button, Stack, Text } from '@mantine/core';
import { IconLogin2 } from '@tabler/icons-react';
import { PageTitle } from '../../components/page-title';

/** The start page for signed-out visitors (product.md P3: a fallback page when not signed in). */
export default function WelcomePage() {
  return (
    <Stack gap="md">
      <PageTitle documentTitle="Willkommen">Willkommen im Gremienportal</PageTitle>
      <Text>
        Das Gremienportal ist der geschützte Bereich für den Aufsichtsrat und die Vertreterinnen und Vertreter
        unserer Genossenschaft. Hier finden Sie Sitzungsunterlagen, Dokumente und Termine.
      </Text>
      <Text>Bitte melden Sie sich mit Ihren persönlichen Zugangsdaten an.</Text>
      <Button component={Link} to="/login" leftSection={<IconLogin2 size={18} aria-hidden />} size="md">
        Zur Anmeldung
      </Button>
    </Stack>
  );
}
