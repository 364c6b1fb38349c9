import { Center, Group, Loader, Text } from '@mantine/core';

export function LoadingState({ label = 'Wird geladen …' }: { label?: string }) {
  return (
    <Center py="xl" role="status" aria-live="polite">
      <Group gap="sm">
        <Loader size="sm" aria-hidden />
        <Text>{label}</Text>
      </Group>
    </Center>
  );
}
