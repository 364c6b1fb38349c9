import { Link } from 'react-router';
import { ActionIcon, Tooltip } from '@mantine/core';
import type { TablerIcon } from '@tabler/icons-react';

interface RowActionProps {
  /** The tooltip, e.g. "Bearbeiten". */
  tooltip: string;
  /** The accessible name, which names the row, e.g. "Event „Sitzung“ bearbeiten". */
  label: string;
  icon: TablerIcon;
  color?: string;
  /** A link (show, edit) … */
  to?: string;
  /** … or an action (delete, download). */
  onClick?: () => void;
}

/** One icon button in a table row's action column, with its tooltip. */
export function RowAction({ tooltip, label, icon: Glyph, color, to, onClick }: RowActionProps) {
  const glyph = <Glyph size={18} aria-hidden />;
  return (
    <Tooltip label={tooltip}>
      {to === undefined ? (
        <ActionIcon variant="subtle" color={color} onClick={onClick} aria-label={label}>
          {glyph}
        </ActionIcon>
      ) : (
        <ActionIcon variant="subtle" color={color} component={Link} to={to} aria-label={label}>
          {glyph}
        </ActionIcon>
      )}
    </Tooltip>
  );
}
