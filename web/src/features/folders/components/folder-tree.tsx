import { memo, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { IconChevronDown, IconChevronRight, IconFolder, IconFolderOpen } from '@tabler/icons-react';
import { expandedFor, treeKeyEffect, treeLabel, visibleRows, type FolderTreeItem } from './folder-tree.keys';
import classes from './folder-tree.module.css';
import { NEWS_MESSAGES } from '@gremienportal/contracts/news-messages';
import { ArchiveBadge } from '../../../components/archive-badge';

export type { FolderTreeItem } from './folder-tree.keys';

/** product.md P13.1: each level of the tree is indented by 15 px. */
export const TREE_INDENT_PX = 15;

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

interface ItemProps {
  node: FolderTreeItem;
  level: number;
  position: number;
  siblings: number;
  expanded: ReadonlySet<number>;
  activeId: number;
  tabStopId: number;
}

function TreeItem({ node, level, position, siblings, expanded, activeId, tabStopId }: ItemProps) {
  const hasChildren = node.children.length > 0;
  const open = hasChildren && expanded.has(node.id);
  const active = node.id === activeId;
  const FolderGlyph = open ? IconFolderOpen : IconFolder;
  const Chevron = open ? IconChevronDown : IconChevronRight;
  const newCount = node.new_count ?? 0;
  // Said after the name, which stays the folder's own (decision 131).
  const describedBy = [
    newCount > 0 ? `tree-new-${node.id}` : null,
    node.archived ? `tree-archived-${node.id}` : null,
  ].filter(Boolean);

  return (
    <li
      className={classes.item}
      role="treeitem"
      aria-label={treeLabel(node)}
      aria-describedby={describedBy.length > 0 ? describedBy.join(' ') : undefined}
      aria-level={level + 1}
      aria-posinset={position}
      aria-setsize={siblings}
      aria-expanded={hasChildren ? open : undefined}
      aria-selected={active}
      aria-current={active ? 'true' : undefined}
      tabIndex={node.id === tabStopId ? 0 : -1}
      data-id={node.id}
    >
      <div
        className={classes.node}
        style={{ paddingLeft: 8 + level * TREE_INDENT_PX }}
        data-active={active || undefined}
        data-level={level}
        title={node.breadcrumb}
      >
        <span className={classes.chevron} aria-hidden>
          {hasChildren ? <Chevron size={14} /> : null}
        </span>
        <FolderGlyph size={18} aria-hidden className={classes.folderIcon} />
        <span className={classes.label}>{treeLabel(node)}</span>
        {node.archived ? <ArchiveBadge id={`tree-archived-${node.id}`} /> : null}
        {newCount > 0 ? (
          <span className={classes.newCount} id={`tree-new-${node.id}`}>
            <span aria-hidden>{newCount}</span>
            <span className={classes.srOnly}>{NEWS_MESSAGES.newCount(newCount)}</span>
          </span>
        ) : null}
      </div>
      {open ? (
        <ul className={classes.list} role="group">
          {node.children.map((child, index) => (
            <TreeItem
              key={child.id}
              node={child}
              level={level + 1}
              position={index + 1}
              siblings={node.children.length}
              expanded={expanded}
              activeId={activeId}
              tabStopId={tabStopId}
            />
          ))}
        </ul>
      ) : null}
    </li>
  );
}

/**
 * The sidebar tree of folders (product.md P3.5) as a WAI-ARIA tree view: one Tab stop (the
 * active folder, or the one last moved to), arrow keys move and expand or collapse, Home/End, a
 * letter jumps, Enter or Space opens; a click opens as well. Which folders are expanded follows the
 * active path (product.md P3.5); Right and Left expand and collapse on top of that until another
 * folder is opened. Only expanded folders render their children, so a tree of thousands of
 * folders renders a few dozen. Hand-written rather than Mantine's `Tree`: that one keeps the Tab
 * stop on the first node, has no Home/End or Enter, and would need the whole tree converted to its
 * data shape on every load. Memoised: with stable callbacks it renders again only for another
 * tree or active folder.
 */
export const FolderTree = memo(function FolderTree({
  root,
  activePath,
  activeId,
  onSelect,
  onAfterSelect,
}: FolderTreeProps) {
  const listRef = useRef<HTMLUListElement>(null);
  const [state, setState] = useState(() => ({ root, activePath, expanded: expandedFor(root, activePath) }));
  const [focusId, setFocusId] = useState<number | null>(null);
  // Another tree or another active folder: the expansion follows the path again.
  let { expanded } = state;
  if (state.root !== root || state.activePath !== activePath) {
    expanded = expandedFor(root, activePath);
    setState({ root, activePath, expanded });
  }
  const rows = visibleRows(root, expanded);
  const shown = (id: number | null) => id !== null && rows.some((row) => row.node.id === id);
  const tabStopId = shown(focusId) ? focusId! : shown(activeId) ? activeId : root.id;

  const open = (node: FolderTreeItem) => {
    setFocusId(node.id);
    onSelect(node);
    onAfterSelect?.();
  };

  const rowIndex = (target: EventTarget) => {
    const item = (target as Element).closest<HTMLElement>('[role="treeitem"]');
    return rows.findIndex((row) => String(row.node.id) === item?.dataset.id);
  };

  // product.md P3.5: a click on a collapsed node activates it (and so expands it); on an expanded
  // one it activates its own path, which collapses what was open below it.
  const handleClick = (event: MouseEvent<HTMLUListElement>) => {
    const row = rows[rowIndex(event.target)];
    if (row) open(row.node);
  };

  const handleKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const index = rowIndex(event.target);
    const effect = treeKeyEffect(event.key, rows, index, expanded);
    if (!effect) return;
    event.preventDefault();
    event.stopPropagation();
    if (effect.kind === 'open') open(effect.node);
    else if (effect.kind === 'focus') {
      setFocusId(effect.id);
      listRef.current?.querySelector<HTMLElement>(`[data-id="${effect.id}"]`)?.focus();
    } else {
      const next = new Set(expanded);
      if (effect.kind === 'expand') next.add(effect.id);
      else next.delete(effect.id);
      setState({ root, activePath, expanded: next });
      setFocusId(effect.id);
    }
  };

  return (
    <nav aria-label="Ordnerbaum">
      <ul
        ref={listRef}
        className={classes.list}
        role="tree"
        aria-label="Ordner"
        onKeyDown={handleKeyDown}
        onClick={handleClick}
      >
        <TreeItem
          node={root}
          level={0}
          position={1}
          siblings={1}
          expanded={expanded}
          activeId={activeId}
          tabStopId={tabStopId}
        />
      </ul>
    </nav>
  );
});
