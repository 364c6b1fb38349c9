import type { ReactNode } from 'react';
import { Paper, Stack, Text, Title } from '@mantine/core';

interface FormSectionProps {
  /** The heading's id, which names the section. */
  id: string;
  title: string;
  description: ReactNode;
  children: ReactNode;
}

/** A framed page section with a heading and a short note above its form ("Nutzer anlegen", …). */
export function FormSection({ id, title, description, children }: FormSectionProps) {
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }} component="section" aria-labelledby={id}>
      <Stack gap="md">
        <div>
          <Title order={2} size="h3" id={id}>
            {title}
          </Title>
          <Text size="sm" c="dimmed" mt={4}>
            {description}
          </Text>
        </div>
        {children}
      </Stack>
    </Paper>
  );
}
