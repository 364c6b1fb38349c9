import { Anchor, Button, Group, Paper, Text } from '@mantine/core';
import { IconArrowLeft, IconChevronRight, IconHome } from '@tabler/icons-react';
import type { TreeNode } from '@gremienportal/contracts/files';
import classes from './path-bar.module.css';

interface PathBarProps {
  /** The folders from the root down to the active one. */
  chain: readonly Pick<TreeNode, 'id' | 'title' | 'breadcrumb'>[];
  onSelect: (folderId: number) => void;
}

/**
 * The current path (product.md P3): a back button to the parent folder and the path itself, each part
 * a way back up. The root has no parent, so the back button is not shown there.
 */
export function PathBar({ chain, onSelect }: PathBarProps) {
  const parent = chain.length >= 2 ? chain[chain.length - 2] : undefined;

  return (
    <Paper withBorder radius="md" px="sm" py={6}>
      <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
        {parent ? (
          <Button
            variant="subtle"
            size="compact-md"
            leftSection={<IconArrowLeft size={18} aria-hidden />}
            aria-label={`Zurück zum übergeordneten Ordner ${parent.breadcrumb}`}
            onClick={() => onSelect(parent.id)}
            style={{ flexShrink: 0 }}
          >
            Zurück
          </Button>
        ) : null}
        <nav aria-label="Aktueller Pfad" style={{ minWidth: 0 }}>
          <Group component="ol" gap={4} wrap="wrap" m={0} p={0} style={{ listStyle: 'none' }}>
            {chain.map((node, index) => {
              const last = index === chain.length - 1;
              const label = index === 0 ? 'Hauptordner' : node.title;
              return (
                <Group component="li" key={node.id} gap={4} wrap="nowrap" className={classes.part}>
                  {index > 0 ? <IconChevronRight size={14} aria-hidden /> : null}
                  {index === 0 ? <IconHome size={16} aria-hidden /> : null}
                  {last ? (
                    <Text
                      component="span"
                      fw={600}
                      size="sm"
                      aria-current="location"
                      style={{ overflowWrap: 'break-word', hyphens: 'auto', minWidth: 0 }}
                    >
                      {label}
                    </Text>
                  ) : (
                    <Anchor
                      component="button"
                      type="button"
                      size="sm"
                      className={classes.part}
                      onClick={() => onSelect(node.id)}
                    >
                      {label}
                    </Anchor>
                  )}
                </Group>
              );
            })}
          </Group>
        </nav>
      </Group>
    </Paper>
  );
}
