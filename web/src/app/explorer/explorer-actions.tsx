import { forwardRef } from 'react';
import { ActionIcon } from '@mantine/core';
import { IconDots } from '@tabler/icons-react';

/** What the explorer's toolbar and its "⋯" menu ask the explorer to do. */
export type ToolbarAction = 'create-folder' | 'edit-folder' | 'delete-folder' | 'upload' | 'period';

/** The name of the "⋯" menu with the rare and the destructive actions. */
export const MORE_ACTIONS_LABEL = 'Weitere Aktionen';

/** The "⋯" button: the stand-in before the menu has loaded and then the menu's own target. */
export const MoreActionsButton = forwardRef<HTMLButtonElement, { deleting: boolean; onClick?: () => void }>(
  function MoreActionsButton({ deleting, ...props }, ref) {
    return (
      <ActionIcon
        ref={ref}
        size="input-sm"
        variant="default"
        aria-label={MORE_ACTIONS_LABEL}
        aria-haspopup="menu"
        title={MORE_ACTIONS_LABEL}
        loading={deleting}
        {...props}
      >
        <IconDots size={20} aria-hidden />
      </ActionIcon>
    );
  },
);
