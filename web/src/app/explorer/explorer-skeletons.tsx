import { memo } from 'react';
import { Paper, Stack } from '@mantine/core';
import { SkeletonBar } from '../../components/skeleton-bar';
import { ExplorerGridSkeleton } from './explorer-grid';
import classes from './explorer-skeletons.module.css';

/** Tree rows while the tree loads, as tall as the folder buttons (36 px) that replace them. */
export const TreeSkeleton = memo(function TreeSkeleton() {
  return (
    <div aria-hidden>
      {[70, 55, 80, 60, 45, 65].map((width, index) => (
        <div key={index} className={classes.treeRow} style={{ paddingLeft: index === 0 ? 8 : 23 }}>
          <SkeletonBar height={22} width={`${width}%`} />
        </div>
      ))}
    </div>
  );
});

/**
 * Path bar, heading and grid while the tree is not there yet: they are swapped for the real ones
 * in one go, so nothing that is already on screen moves. At least a screen tall, so the footer
 * waits below the fold instead of being pushed down by the grid (decision 114).
 */
export const ContentSkeleton = memo(function ContentSkeleton({ atRoot }: { atRoot: boolean }) {
  return (
    <Stack gap="md" mih="100vh">
      <Paper withBorder radius="md" px="sm" py={6} aria-hidden>
        <div className={atRoot ? classes.pathRoot : classes.pathFolder}>
          <SkeletonBar height={14} width={atRoot ? 110 : 280} />
        </div>
      </Paper>
      <div>
        <div className={classes.heading} aria-hidden>
          <SkeletonBar height={16} width={180} />
        </div>
        <ExplorerGridSkeleton />
      </div>
    </Stack>
  );
});
