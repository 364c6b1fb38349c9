import { memo } from 'react';
import { UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconChevronRight, IconFolder, IconFolderOpen } from '@tabler/icons-react';
import { isNodeExpanded } from '../folders.rules';
import classes from './folder-tree.module.css';

/** product.md P13.1: each level of the tree is indented by 15 px. */
export const TREE_INDENT_PX = 15;

/** What the tree needs of a folder (the explorer passes its `FolderNode`s). */
export interface FolderTreeItem {
  id: number;
  title: string;
  breadcrumb: string;
  children: readonly FolderTreeItem[];
}

interface FolderTreeProps {
  root: FolderTreeItem;
  /** The active folder's path (breadcrumb), e.g. `/Aufsichtsrat/2026`. */
  activePath: string;
  activeId: number;
  /** Activates a folder (the explorer puts it into the address). */
  onSelect: (node: FolderTreeItem) => void;
  /** Called after a selection, e.g. to close the drawer on a phone. */
  onAfterSelect?: () => void;
}

interface NodeProps extends Omit<FolderTreeProps, 'root'> {
  node: FolderTreeItem;
  level: number;
}

function FolderNode({ node, level, activePath, activeId, onSelect, onAfterSelect }: NodeProps) {
  const expanded = isNodeExpanded(node, activePath);
  const hasChildren = node.children.length > 0;
  const active = node.id === activeId;
  const label = node.breadcrumb === '/' ? 'Hauptordner' : node.title;
  const FolderGlyph = expanded && hasChildren ? IconFolderOpen : IconFolder;
  const Chevron = expanded ? IconChevronDown : IconChevronRight;

  return (
    <li className={classes.item}>
      <UnstyledButton
        className={classes.node}
        style={{ paddingLeft: 8 + level * TREE_INDENT_PX }}
        // product.md P3: a collapsed node is activated (and so expands); an expanded one activates
        // its own path, which collapses whatever was open below it.
        onClick={() => {
          onSelect(node);
          onAfterSelect?.();
        }}
        aria-expanded={hasChildren ? expanded : undefined}
        aria-current={active ? 'true' : undefined}
        data-active={active || undefined}
        data-level={level}
        title={node.breadcrumb}
      >
        <span className={classes.chevron} aria-hidden>
          {hasChildren ? <Chevron size={14} /> : null}
        </span>
        <FolderGlyph size={18} aria-hidden className={classes.folderIcon} />
        <span className={classes.label}>{label}</span>
      </UnstyledButton>
      {hasChildren && expanded ? (
        <ul className={classes.list}>
          {node.children.map((child) => (
            <FolderNode
              key={child.id}
              node={child}
              level={level + 1}
              activePath={activePath}
              activeId={activeId}
              onSelect={onSelect}
              onAfterSelect={onAfterSelect}
            />
          ))}
        </ul>
      ) : null}
    </li>
  );
}

/**
 * The sidebar tree of folders (product.md P3). Every folder is a button: Tab reaches each visible one,
 * Enter or Space opens it; `aria-expanded` and `aria-current` tell screen readers the state. Only
 * expanded folders render their children, so a tree of thousands of folders renders a few dozen.
 * Memoised: with stable callbacks it renders again only for another tree or active folder.
 */
export const FolderTree = memo(function FolderTree({ root, ...props }: FolderTreeProps) {
  return (
    <nav aria-label="Ordnerbaum">
      <ul className={classes.list}>
        <FolderNode node={root} level={0} {...props} />
      </ul>
    </nav>
  );
});
