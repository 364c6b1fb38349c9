import { useId, type ReactNode, type Ref } from 'react';
import { Box, Group, Paper, Stack, Text, Title, type MantineSpacing, type TitleOrder } from '@mantine/core';

interface PageSectionProps {
  title: ReactNode;
  /** A short dimmed note under the heading ("Nur für Admins sichtbar", …). */
  description?: ReactNode;
  /** Beside the heading, e.g. "Tagesordnung bearbeiten"; wraps below it on a phone. */
  action?: ReactNode;
  /** The heading's id, when the page refers to it; otherwise one is made. */
  id?: string;
  /** The heading's level (2 unless the section sits below another heading). */
  order?: TitleOrder;
  gap?: MantineSpacing;
  /** Without a frame: a section inside another frame (the account page's parts). */
  framed?: boolean;
  /** Inside the frame after the section's stack, without its gap (a live region that may be empty). */
  footer?: ReactNode;
  /** The section's own id, where a link leads to it (`/account#benachrichtigungen`). */
  anchor?: string;
  ref?: Ref<HTMLDivElement>;
  children: ReactNode;
}

/**
 * A page section with its heading, named by it for screen readers: framed on its own, or plain
 * inside a larger frame. Every section of the portal's pages is drawn by this one component.
 */
export function PageSection({
  title,
  description,
  action,
  id,
  order = 2,
  gap = 'md',
  framed = true,
  footer,
  anchor,
  ref,
  children,
}: PageSectionProps) {
  const madeId = useId();
  const headingId = id ?? madeId;
  const heading = (
    <Title order={order} size="h3" id={headingId}>
      {title}
    </Title>
  );
  const head = description ? (
    <div>
      {heading}
      <Text size="sm" c="dimmed">
        {description}
      </Text>
    </div>
  ) : (
    heading
  );
  const top = action ? (
    <Group justify="space-between" align="center" gap="sm">
      <Box>{head}</Box>
      {action}
    </Group>
  ) : (
    head
  );
  if (!framed) {
    return (
      <Stack gap={gap} component="section" aria-labelledby={headingId} id={anchor} ref={ref}>
        {top}
        {children}
      </Stack>
    );
  }
  return (
    <Paper
      withBorder
      radius="lg"
      p={{ base: 'md', sm: 'xl' }}
      component="section"
      aria-labelledby={headingId}
    >
      <Stack gap={gap}>
        {top}
        {children}
      </Stack>
      {footer}
    </Paper>
  );
}
